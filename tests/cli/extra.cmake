# Extra registrations for test_cli (included from tests/CMakeLists.txt, so CMAKE_CURRENT_SOURCE_DIR
# is tests/). Packaging (#15.3): the installed tree runs from anywhere; find_package(mlsys) works
# for an outside project; the .deb unpacks and runs.
set(MLSYS_TEST_TMP ${PROJECT_BINARY_DIR}/test_tmp)
add_test(NAME cli/install_tree
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/install_test.sh ${PROJECT_BINARY_DIR}
                 ${MLSYS_TEST_TMP}/prefix ${MLSYS_TEST_TMP}/install_run)
set_tests_properties(cli/install_tree PROPERTIES FIXTURES_SETUP mlsys_prefix TIMEOUT 600)
add_test(NAME cli/find_package_consumer
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/consumer_test.sh ${PROJECT_SOURCE_DIR}
                 ${MLSYS_TEST_TMP}/prefix ${MLSYS_TEST_TMP}/consumer)
set_tests_properties(cli/find_package_consumer PROPERTIES FIXTURES_REQUIRED mlsys_prefix TIMEOUT 600
                     PASS_REGULAR_EXPRESSION "consumer: simulate")
add_test(NAME cli/deb_package
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/deb_test.sh ${PROJECT_BINARY_DIR} ${MLSYS_TEST_TMP}/deb)
set_tests_properties(cli/deb_package PROPERTIES TIMEOUT 900)
# Issue #31.4: the .deb installs with apt into a clean Debian 12 root (debootstrap, cached under
# build/test_cache) and the quickstart runs there; needs root and Debian's servers, skipped without.
# Run alone: ctest -L deb_clean_root (ctest -L packaging: the four packaging tests). Both .deb tests run
# cpack, whose preinstall step builds in this build folder: one at a time.
add_test(NAME cli/deb_clean_root
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/deb_clean_root_test.sh ${PROJECT_BINARY_DIR}
                 ${MLSYS_TEST_TMP}/deb_clean_root ${PROJECT_BINARY_DIR}/test_cache/deb_clean_root)
set_tests_properties(cli/deb_clean_root PROPERTIES TIMEOUT 900 LABELS "packaging;deb_clean_root"
                     SKIP_RETURN_CODE ${MLSYS_SKIP_RETURN_CODE} RESOURCE_LOCK cpack)
set_tests_properties(cli/deb_package PROPERTIES RESOURCE_LOCK cpack)
set_tests_properties(cli/install_tree cli/find_package_consumer cli/deb_package PROPERTIES LABELS packaging)

# Python (#15.4): venv + pip install -e python/, the README one-liner and python/tests.
add_test(NAME cli/python_package
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/python_test.sh ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/bin/mlsys
                 ${MLSYS_TEST_TMP}/python)
set_tests_properties(cli/python_package PROPERTIES TIMEOUT 600)

# Issue #30: a 1 MB file whose headers claim far more (.npz member, .mlsg graph, IDX images, deep
# JSON, a 1 MB line) is refused, or read, under 256 MiB of peak memory (GNU time's figure).
add_test(NAME cli/input_memory_cap
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli/input_memory_cap_test.sh ${PROJECT_BINARY_DIR}/bin/mlsys
                 ${MLSYS_TEST_TMP}/input_memory_cap)
set_tests_properties(cli/input_memory_cap PROPERTIES TIMEOUT 300 SKIP_RETURN_CODE ${MLSYS_SKIP_RETURN_CODE})
