# mlsys_add_module(<name> [DIR <folder>] [EXCLUDE <subfolder>...] DEPS <targets...>)
# Builds lib mlsys_<name> (shared, so self-registering components are always linked in) from every
# source under the current folder. Folders named cuda/ or nccl/ (and .cu files) are never part of a
# module: they build into the backend plugins loaded at run time (cmake/mlsys_plugin.cmake), so no
# module links a CUDA or NCCL library. Folders named mpi/ are compiled only when MPI is enabled.
# Each module is installed (cmake --install) as lib/libmlsys_<name>.so with its headers under
# include/mlsys/<folder>/ and exported as the CMake target mlsys::<name> (find_package(mlsys); see
# docs/PACKAGING.md).
function(mlsys_add_module name)
  cmake_parse_arguments(M "" "DIR" "DEPS;EXCLUDE" ${ARGN})
  if(NOT M_DIR)
    set(M_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  endif()
  file(GLOB_RECURSE srcs CONFIGURE_DEPENDS ${M_DIR}/*.cpp ${M_DIR}/*.cu)
  set(kept "")
  foreach(f IN LISTS srcs)
    file(RELATIVE_PATH rel ${M_DIR} ${f})
    set(rel "/${rel}")
    set(skip OFF)
    foreach(ex IN LISTS M_EXCLUDE)
      if(rel MATCHES "^/${ex}/")
        set(skip ON)
      endif()
    endforeach()
    if(skip)
      continue()
    endif()
    if(rel MATCHES "/(cuda|nccl)/" OR f MATCHES "\\.cu$")
      continue()
    endif()
    if(rel MATCHES "/mpi/" AND NOT MLSYS_HAVE_MPI)
      continue()
    endif()
    list(APPEND kept ${f})
  endforeach()
  if(NOT kept)  # a module whose sources have not landed yet still links
    file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/mlsys_${name}_empty.cpp "// no sources yet\n")
    set(kept ${CMAKE_CURRENT_BINARY_DIR}/mlsys_${name}_empty.cpp)
  endif()
  add_library(mlsys_${name} SHARED ${kept})
  target_include_directories(mlsys_${name} PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}>
                                                  $<INSTALL_INTERFACE:include/mlsys>)
  target_link_libraries(mlsys_${name} PUBLIC ${M_DEPS} PRIVATE $<BUILD_INTERFACE:mlsys_warnings>)
  # Every symbol a module uses must come from a library it links: a dependency missing from DEPS
  # is a link error here, not luck at load time (tests/layers: the include order says the same).
  target_link_options(mlsys_${name} PRIVATE LINKER:-z,defs)
  set_target_properties(mlsys_${name} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF POSITION_INDEPENDENT_CODE ON
                                                 EXPORT_NAME ${name})
  install(TARGETS mlsys_${name} EXPORT mlsysTargets LIBRARY DESTINATION lib COMPONENT runtime)
  file(RELATIVE_PATH rel_dir ${PROJECT_SOURCE_DIR} ${M_DIR})
  install(DIRECTORY ${M_DIR}/ DESTINATION include/mlsys/${rel_dir} COMPONENT dev
          FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h" PATTERN "*.cuh")
endfunction()
