# Extra registrations for test_core (included from tests/CMakeLists.txt inside
# mlsys_add_test_suite, so CMAKE_CURRENT_SOURCE_DIR is tests/).
# MPI: the collective cases of tests/core/comm/collective_cases.cpp on the mpi backend, run by
# mpirun with 2 and 4 processes (--oversubscribe: CI machines have 2 cores), plus the failure
# cases (a missing peer, a dying rank) that must end without a hang. ctest may run as root in
# containers, which Open MPI refuses unless told otherwise.
if(MLSYS_HAVE_MPI)
  add_executable(test_core_comm_mpi
    ${CMAKE_CURRENT_SOURCE_DIR}/core/standalone/comm_mpi_test.cpp
    ${CMAKE_CURRENT_SOURCE_DIR}/core/comm/collective_cases.cpp)
  target_link_libraries(test_core_comm_mpi PRIVATE mlsys_test_main mlsys_core mlsys_warnings)
  set_target_properties(test_core_comm_mpi PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/tests)
  add_dependencies(test_core test_core_comm_mpi)

  # mlsys_core_mpi_test(<name> <np> <timeout> [PASS <regex;...>] [ARGS <doctest args...>])
  function(mlsys_core_mpi_test name np timeout)
    cmake_parse_arguments(T "" "" "PASS;ARGS" ${ARGN})  # PASS: regexes, any may match
    add_test(NAME core/comm/${name}
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${np} --oversubscribe
                     --mca btl self,vader,tcp --mca btl_vader_single_copy_mechanism none
                     $<TARGET_FILE:test_core_comm_mpi> ${T_ARGS})
    set_tests_properties(core/comm/${name} PROPERTIES
      TIMEOUT ${timeout}
      ENVIRONMENT "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1;OMPI_MCA_rmaps_base_oversubscribe=1")
    if(T_PASS)
      set_tests_properties(core/comm/${name} PROPERTIES PASS_REGULAR_EXPRESSION "${T_PASS}")
    endif()
  endfunction()

  mlsys_core_mpi_test(mpi_np2 2 300)
  mlsys_core_mpi_test(mpi_np4 4 300)
  # Rank 1 skips a barrier: rank 0 must time out naming rank and operation.
  mlsys_core_mpi_test(mpi_timeout 2 120
    PASS "observed: rank 0 of 2 \\(mpi\\): barrier timed out after"
    ARGS --no-skip "-tc=comm/mpi: a missing peer*")
  # Rank 1 dies: mpirun reports it and ends the job, or rank 0's barrier times out.
  mlsys_core_mpi_test(mpi_dead_rank 2 60
    PASS "observed: rank 0 of 2 \\(mpi\\): barrier timed out;exiting improperly;exited on signal;exited with non-zero status"
    ARGS --no-skip "-tc=comm/mpi: a rank that dies*")
endif()
