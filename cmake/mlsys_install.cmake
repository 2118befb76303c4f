# Installation and packaging (docs/PACKAGING.md). `cmake --install build --prefix P` gives a
# relocatable tree: P/bin/mlsys finds its libraries through RUNPATH $ORIGIN/../lib, so the tree can
# be moved or unpacked anywhere. The module targets are installed by mlsys_add_module.
include(CMakePackageConfigHelpers)

install(EXPORT mlsysTargets NAMESPACE mlsys:: DESTINATION lib/cmake/mlsys COMPONENT dev)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/mlsysConfig.cmake.in
  ${PROJECT_BINARY_DIR}/mlsysConfig.cmake INSTALL_DESTINATION lib/cmake/mlsys)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/mlsysConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/mlsysConfig.cmake ${PROJECT_BINARY_DIR}/mlsysConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/third_party/cmake/FindMETIS.cmake ${PROJECT_SOURCE_DIR}/third_party/cmake/FindNCCL.cmake
        DESTINATION lib/cmake/mlsys COMPONENT dev)

# The quickstart runs the mlsys installed beside it; shipped configs and the sweep examples.
install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/quickstart DESTINATION bin RENAME mlsys-quickstart COMPONENT runtime)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/configs/ DESTINATION share/mlsys/configs COMPONENT runtime)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/scripts/sweep/ DESTINATION share/mlsys/sweep COMPONENT runtime OPTIONAL)
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION share/doc/mlsys COMPONENT runtime)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION share/doc/mlsys COMPONENT runtime)

# ---- CPack: `cpack -G DEB` in the build folder makes mlsys_<version>_<arch>.deb (prefix /usr) ----
set(CPACK_PACKAGE_NAME mlsys)
set(CPACK_PACKAGE_VENDOR "mlsys")
set(CPACK_PACKAGE_CONTACT "mlsys maintainers <mlsys@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "ML-systems toolkit: Sylvie, AnalySIM, SchedMate and CoOpt behind one CLI")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "dataset-fashion-mnist")
# Depends is computed by dpkg-shlibdeps in every build, from the NEEDED entries of every packaged
# ELF file: a hand-written list goes stale (it once lacked libcurl4 and libxgboost0). CPack runs it
# with --ignore-missing-info, which leaves out the libraries that no Debian package provides: in a
# CUDA build those are NVIDIA's CUDA and NCCL libraries, needed only by the backend plugins (dlopened
# on demand; the CPU backend and the quickstart run without them). cmake/mlsys_cpack_project.cmake
# names them in the package description at cpack time and refuses a package whose other files need
# such a library, so nothing is left out silently.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_SOURCE_DIR}/cmake/mlsys_cpack_project.cmake)
get_property(mlsys_cpack_plugins GLOBAL PROPERTY MLSYS_PLUGINS)
set(CPACK_MLSYS_BINARY ${PROJECT_BINARY_DIR}/bin/mlsys)
set(CPACK_MLSYS_PLUGIN_FILES "")
foreach(t IN LISTS mlsys_cpack_plugins)
  list(APPEND CPACK_MLSYS_PLUGIN_FILES ${PROJECT_BINARY_DIR}/lib/lib${t}.so)
endforeach()
include(CPack)
