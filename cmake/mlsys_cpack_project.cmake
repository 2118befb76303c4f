# CPACK_PROJECT_CONFIG_FILE (cmake/mlsys_install.cmake): runs inside `cpack`, after the build, so it
# can look at the built files. For the Debian package it
#  - refuses to go on without dpkg-shlibdeps (CPack would otherwise package with an empty Depends);
#  - refuses a package whose binary or module libraries need a library that no Debian package
#    provides (dpkg-shlibdeps --ignore-missing-info would drop it from Depends without a word);
#  - names, in the description, the libraries of that kind which the backend plugins need (CUDA,
#    NCCL): the plugins are dlopened only when a config asks for their backend, so the package
#    installs and its CPU backend runs without them, and the user learns what a GPU run needs.
if(NOT CPACK_GENERATOR STREQUAL "DEB")
  return()
endif()
cmake_policy(SET CMP0057 NEW)  # if(IN_LIST): cpack reads this file without the project's policies

find_program(MLSYS_DPKG_SHLIBDEPS dpkg-shlibdeps)
find_program(MLSYS_DPKG_QUERY dpkg-query)
if(NOT MLSYS_DPKG_SHLIBDEPS OR NOT MLSYS_DPKG_QUERY)
  message(FATAL_ERROR "cpack -G DEB computes Depends with dpkg-shlibdeps and dpkg-query, which were not found: "
                      "build the package on Debian 12 with dpkg-dev installed (scripts/setup installs it)")
endif()

# The sonames that `elf` loads (transitively, as ldd resolves them on this machine) from outside both
# this package (libmlsys_*) and the Debian archive. One dpkg-query call asks about every file, each
# as ldd printed it, resolved, and with /usr added or removed (Debian 12 merges /lib into /usr/lib,
# and dpkg knows each file under one spelling only).
function(mlsys_non_debian_libs elf out)
  execute_process(COMMAND ldd "${elf}" OUTPUT_VARIABLE text RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "ldd ${elf} failed (${err}): build the package targets before running cpack")
  endif()
  string(REPLACE "\n" ";" lines "${text}")
  set(missing "")
  set(sonames "")
  set(queries "")
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "^[ \t]*([^ \t]+) => ([^ \t]+)")
      continue()  # the vDSO and the dynamic loader, which name no file to look up
    endif()
    set(soname "${CMAKE_MATCH_1}")
    set(path "${CMAKE_MATCH_2}")
    if(soname MATCHES "^libmlsys_")
      continue()
    elseif(path STREQUAL "not")
      list(APPEND missing "${soname}")  # "not found": nothing on this machine provides it either
      continue()
    endif()
    file(REAL_PATH "${path}" real)
    set(spellings "")
    foreach(p IN ITEMS "${path}" "${real}")
      if(p MATCHES "^/usr(/.*)$")
        list(APPEND spellings "${p}" "${CMAKE_MATCH_1}")
      else()
        list(APPEND spellings "${p}" "/usr${p}")
      endif()
    endforeach()
    list(APPEND sonames "${soname}")
    set(spellings_${soname} "${spellings}")
    list(APPEND queries ${spellings})
  endforeach()
  set(owned "")
  if(queries)
    list(REMOVE_DUPLICATES queries)
    # Exit status 1 only says that some spellings are unknown; the owned ones are on stdout.
    execute_process(COMMAND ${MLSYS_DPKG_QUERY} -S ${queries} OUTPUT_VARIABLE found ERROR_QUIET)
    string(REGEX MATCHALL "[^\n]*: (/[^\n]*)" pairs "${found}")
    foreach(pair IN LISTS pairs)
      string(REGEX REPLACE "^.*: (/.*)$" "\\1" file "${pair}")
      list(APPEND owned "${file}")
    endforeach()
  endif()
  foreach(soname IN LISTS sonames)
    set(hit FALSE)
    foreach(p IN LISTS spellings_${soname})
      if(p IN_LIST owned)
        set(hit TRUE)
      endif()
    endforeach()
    if(NOT hit)
      list(APPEND missing "${soname}")
    endif()
  endforeach()
  set(${out} "${missing}" PARENT_SCOPE)
endfunction()

mlsys_non_debian_libs("${CPACK_MLSYS_BINARY}" core_outside)
if(core_outside)
  list(JOIN core_outside ", " core_outside)
  message(FATAL_ERROR "bin/mlsys or its libraries need ${core_outside}, which no Debian package provides, so the "
                      "package's Depends cannot name it: link the Debian package's library instead (scripts/setup)")
endif()

string(CONCAT description "One command-line tool, mlsys, for ML-systems experiments: Sylvie GNN training, the AnalySIM\n"
                "cluster simulator, the SchedMate job advisor and CoOpt data optimization.\n"
                "Run mlsys-quickstart to try every command on its built-in configuration.")
set(plugin_names "")
set(plugin_outside "")
foreach(plugin IN LISTS CPACK_MLSYS_PLUGIN_FILES)
  get_filename_component(name "${plugin}" NAME)
  list(APPEND plugin_names "${name}")
  mlsys_non_debian_libs("${plugin}" libs)
  list(APPEND plugin_outside ${libs})
endforeach()
if(plugin_outside)
  list(REMOVE_DUPLICATES plugin_outside)
  list(SORT plugin_outside)
  list(JOIN plugin_outside ", " libs_text)
  list(JOIN plugin_names ", " plugins_text)
  string(APPEND description "\n\n"
         "GPU backends: the plugins ${plugins_text} need\n"
         "${libs_text},\n"
         "which no Debian package provides: install NVIDIA's CUDA toolkit and NCCL under\n"
         "/usr/local/cuda (or put their folder on LD_LIBRARY_PATH); a GPU also needs the NVIDIA\n"
         "driver (libcuda.so.1). Without them the package installs and runs on the CPU; a config\n"
         "asking for a GPU backend stops with the reason, which `mlsys version` also shows.")
endif()
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "${description}")
