// The collective cases on the nccl backend, one process and one rank: the device-buffer paths
// (the quantized collectives included: encoded on the GPU, handed to NCCL without staging).
// Across ranks they run under mpirun (tests/core/standalone/comm_mpi_test.cpp). Skipped where
// the nccl backend is unavailable (no plugin, no NCCL, no GPU).
#include <doctest/doctest.h>

#include "core/comm/factory.hpp"
#include "tests/common/skip.hpp"
#include "tests/core/comm/collective_cases.hpp"

using namespace mlsys;

TEST_CASE("comm/nccl: every collective case on one rank") {
  auto b = comm::backend_registry().create("nccl");
  if (BackendStatus s = b->status(); !s.available) MLSYS_SKIP("no-nccl", "nccl backend unavailable: " << s.detail);
  CommOptions o;
  o.backend = "nccl";
  o.timeout_s = 60;
  auto c = b->make(o, 0);  // device 0
  REQUIRE(c->memory() == comm::Memory::cuda);
  REQUIRE(c->accepts(Device::cuda(0)));
  REQUIRE_FALSE(c->accepts(Device::cpu()));
  for (const auto& tc : test::collective_cases()) {
    CAPTURE(tc.name);
    CHECK_NOTHROW(tc.body(*c));
  }
}
