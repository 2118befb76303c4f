# mlsys_add_plugin(<name> DIRS <folders...> LIBS <targets...> [DEFINITIONS <defs...>])
# Builds the backend plugin libmlsys_<name>.so from every .cpp and .cu under DIRS (relative to the
# current folder). A plugin is a MODULE library: nothing links it; the core loads it with dlopen
# when a config asks for its backend (core/tensor/plugin.hpp). It links mlsys_core (already in
# the process that opens it) and LIBS (CUDA, NCCL), which no module and no executable links, so
# the mlsys binary starts on machines without them. Output: <build>/lib, which build/bin/mlsys,
# build/tests/* and build/bench/* see as $ORIGIN/../lib; installed into lib/ beside the modules.
function(mlsys_add_plugin name)
  cmake_parse_arguments(P "" "" "DIRS;LIBS;DEFINITIONS" ${ARGN})
  set(srcs "")
  foreach(d IN LISTS P_DIRS)
    file(GLOB_RECURSE found CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${d}/*.cpp ${CMAKE_CURRENT_SOURCE_DIR}/${d}/*.cu)
    list(APPEND srcs ${found})
  endforeach()
  add_library(mlsys_${name} MODULE ${srcs})
  target_link_libraries(mlsys_${name} PRIVATE mlsys_core ${P_LIBS} mlsys_warnings)
  target_link_options(mlsys_${name} PRIVATE LINKER:-z,defs)  # as the modules (mlsys_module.cmake)
  if(P_DEFINITIONS)
    target_compile_definitions(mlsys_${name} PRIVATE ${P_DEFINITIONS})
  endif()
  set_target_properties(mlsys_${name} PROPERTIES
    PREFIX "lib"
    LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib
    CUDA_SEPARABLE_COMPILATION OFF
    POSITION_INDEPENDENT_CODE ON
    INSTALL_RPATH "$ORIGIN;$ORIGIN/../lib"  # beside libmlsys_core.so (both in lib/), same rule as the binaries
    INSTALL_RPATH_USE_LINK_PATH ON)
  install(TARGETS mlsys_${name} LIBRARY DESTINATION lib COMPONENT runtime)
  set_property(GLOBAL APPEND PROPERTY MLSYS_PLUGINS mlsys_${name})
endfunction()
