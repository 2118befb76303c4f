# MPI participant equivalence: mpirun -np 3 vs one inproc rank (needs the MPI build and mpirun).
if(MLSYS_HAVE_MPI)
  find_program(MLSYS_DATAOPT_MPIRUN mpirun)
  if(MLSYS_DATAOPT_MPIRUN AND TARGET mlsys)
    add_test(NAME dataopt/mpi_participants_match_inproc
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/dataopt/mpi_equivalence.sh $<TARGET_FILE:mlsys>
                     ${PROJECT_SOURCE_DIR}/configs/coopt/tiny_synthetic.yaml ${PROJECT_BINARY_DIR}/test_tmp/dataopt_mpi)
    set_tests_properties(dataopt/mpi_participants_match_inproc PROPERTIES TIMEOUT 600)
  endif()
endif()
