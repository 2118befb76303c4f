#pragma once
// Collective test bodies written once and run on every backend present: inproc (2, 3, 4 ranks)
// in test_core, MPI through mpirun (tests/core/standalone/comm_mpi_test.cpp), NCCL when a GPU is
// there, and inproc with data on an emulated device (comm/device_path_test.cpp). A body throws
// std::runtime_error naming what differed; the runner turns that into a test failure (and the
// other ranks fail within the timeout).
#include <functional>
#include <string>
#include <vector>

#include "core/comm/communicator.hpp"
#include "core/tensor/device_context.hpp"

namespace mlsys::test {

struct CollectiveCase {
  std::string name;
  std::function<void(comm::Communicator&)> body;
};

const std::vector<CollectiveCase>& collective_cases();

// Where the device-generic cases (quantized, tensor collectives) put their data: by default the
// memory the communicator takes (host for inproc/mpi, its GPU for nccl); a test may choose
// another context per rank (an emulated device, so the host-staging path runs on a CPU).
using DataContextFn = std::function<DeviceContext&(const comm::Communicator&)>;
void set_data_context(DataContextFn fn);  // an empty fn restores the default
DeviceContext& data_context(const comm::Communicator& c);

}  // namespace mlsys::test
