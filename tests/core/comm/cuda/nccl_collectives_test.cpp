// The collective cases on the nccl backend with one rank per visible GPU is run under mpirun
// (tests/core/standalone/test_comm_mpi.cpp); here one process, one rank: the device-buffer paths.
#include <cuda_runtime_api.h>
#include <doctest/doctest.h>

#include "core/comm/factory.hpp"
#include "tests/core/comm/collective_cases.hpp"

using namespace mlsys;

TEST_CASE("comm/nccl: every collective case on one rank (skipped without a GPU)") {
#ifndef MLSYS_WITH_NCCL
  MESSAGE("SKIPPED: built without NCCL");
#else
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    MESSAGE("SKIPPED: no CUDA device visible; the nccl backend needs a GPU");
    return;
  }
  CommOptions o;
  o.backend = "nccl";
  o.timeout_s = 60;
  auto c = comm::backend("nccl")->make(o, 0);  // device 0
  REQUIRE(c->memory() == comm::Memory::cuda);
  for (const auto& tc : test::collective_cases()) {
    if (tc.host_only) continue;
    CAPTURE(tc.name);
    CHECK_NOTHROW(tc.body(*c));
  }
#endif
}
