# Extra registrations for test_core (included from tests/CMakeLists.txt inside
# mlsys_add_test_suite, so CMAKE_CURRENT_SOURCE_DIR is tests/). apps/ is added before tests/, so
# TARGET mlsys is known here.
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
    set_tests_properties(core/comm/${name} PROPERTIES SKIP_RETURN_CODE ${MLSYS_SKIP_RETURN_CODE})
  endfunction()

  mlsys_core_mpi_test(mpi_np2 2 300 ARGS "-tce=comm/nccl*")
  mlsys_core_mpi_test(mpi_np4 4 300 ARGS "-tce=comm/nccl*")
  # The nccl backend across 2 processes, one GPU each (skipped with the reason on fewer GPUs).
  mlsys_core_mpi_test(nccl_mpi_np2 2 300 ARGS "-tc=comm/nccl*")
  # Rank 1 skips a barrier: rank 0 must time out naming rank and operation.
  mlsys_core_mpi_test(mpi_timeout 2 120
    PASS "observed: rank 0 of 2 \\(mpi\\): barrier timed out after"
    ARGS --no-skip "-tc=comm/mpi: a missing peer*")
  # Rank 1 dies: mpirun reports it and ends the job, or rank 0's barrier times out.
  mlsys_core_mpi_test(mpi_dead_rank 2 60
    PASS "observed: rank 0 of 2 \\(mpi\\): barrier timed out;exiting improperly;exited on signal;exited with non-zero status"
    ARGS --no-skip "-tc=comm/mpi: a rank that dies*")
  # #16.7: a rank that stalls before MPI starts, or mid-run with requests pending, is reported after
  # about comm.timeout_s (2 s) with one error naming the rank and the operation; the job then ends.
  mlsys_core_mpi_test(mpi_init_stall 2 30
    PASS "rank 0 of 2 \\(mpi\\): MPI initialization timed out after 2 s"
    ARGS --no-skip "-tc=comm/mpi: a rank that stalls before MPI starts*")
  mlsys_core_mpi_test(mpi_stall 2 30
    PASS "observed within 1.5x comm.timeout_s \\([0-9.]+ s\\): rank 0 of 2 \\(mpi\\): all_reduce sum of 1000 f32 timed out after 2 s"
    ARGS --no-skip "-tc=comm/mpi: a rank that stalls mid-run*")
else()
  # No MPI in this build: its tests are reported as skipped with the reason, not left out.
  foreach(name mpi_np2 mpi_np4 nccl_mpi_np2 mpi_timeout mpi_dead_rank mpi_init_stall mpi_stall)
    add_test(NAME core/comm/${name} COMMAND sh -c "echo 'TEST SKIPPED [no-mpi]: built without MPI (install libopenmpi-dev: scripts/setup)'; exit ${MLSYS_SKIP_RETURN_CODE}")
    set_tests_properties(core/comm/${name} PROPERTIES SKIP_RETURN_CODE ${MLSYS_SKIP_RETURN_CODE})
  endforeach()
endif()

# The mlsys binary and libmlsys_core.so link no CUDA or NCCL library: those are plugins.
if(TARGET mlsys)
  add_test(NAME core/plugins/binary_links_no_cuda_or_nccl
           COMMAND Python3::Interpreter ${CMAKE_CURRENT_SOURCE_DIR}/core/plugins/check_links.py
                   $<TARGET_FILE:mlsys> $<TARGET_FILE:mlsys_core> ${PROJECT_BINARY_DIR}/lib ${MLSYS_HAVE_CUDA} ${MLSYS_HAVE_NCCL})
endif()
