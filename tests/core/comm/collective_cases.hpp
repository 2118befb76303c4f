#pragma once
// Collective test bodies written once and run on every backend present: inproc (2, 3, 4 ranks)
// in test_core, MPI through mpirun (tests/core/standalone/test_comm_mpi.cpp), NCCL when a GPU is
// there. A body throws std::runtime_error naming what differed; the runner turns that into a test
// failure (and the other ranks fail within the timeout).
#include <functional>
#include <string>
#include <vector>

#include "core/comm/communicator.hpp"

namespace mlsys::test {

struct CollectiveCase {
  std::string name;
  std::function<void(comm::Communicator&)> body;
  bool host_only = false;  // uses host-side codecs (quantized collectives): skipped on nccl
};

const std::vector<CollectiveCase>& collective_cases();

}  // namespace mlsys::test
