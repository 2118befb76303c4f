# Extra registrations for test_gnn (included from tests/CMakeLists.txt inside mlsys_add_test_suite,
# so CMAKE_CURRENT_SOURCE_DIR is tests/).
# MPI: `mpirun -np 2 mlsys train-gnn` vs 2 inproc workers, same loss curve (needs the MPI build).
if(MLSYS_HAVE_MPI)
  find_program(MLSYS_GNN_MPIRUN mpirun)
  if(MLSYS_GNN_MPIRUN AND TARGET mlsys)
    add_test(NAME gnn/mpi_train_matches_inproc
             COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/gnn/mpi_equivalence.sh $<TARGET_FILE:mlsys>
                     ${PROJECT_BINARY_DIR}/test_tmp/gnn_mpi)
    set_tests_properties(gnn/mpi_train_matches_inproc PROPERTIES TIMEOUT 600)
  endif()
endif()
