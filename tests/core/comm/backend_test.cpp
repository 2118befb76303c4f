// The communicator backend table (core/comm/backend.hpp): every backend is an entry in every
// build, a backend that is not built says how to get it, run_ranks and make_communicator go
// through the entry.
#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <vector>

#include "core/comm/factory.hpp"
#include "core/util/error.hpp"

using namespace mlsys;

TEST_CASE("comm/factory: every backend is a registry entry, and those not built name their CMake option") {
  // The table is the same in every build (so --help and docs/CONFIG.md are too); built() differs.
  std::vector<std::string> names;
  for (const auto& c : comm::backend_registry().choices()) {
    names.push_back(c.name);
    CHECK_FALSE(c.description.empty());
  }
  CHECK(names == std::vector<std::string>{"inproc", "mpi", "nccl"});
  CHECK(comm::backend_available("inproc"));
  CHECK(comm::backend("inproc")->in_process());
  CHECK(comm::available_backends().front() == "inproc");
  for (std::string b : {"mpi", "nccl"}) {
    CHECK_FALSE(comm::backend_registry().create(b)->in_process());
    if (comm::backend_available(b)) continue;
    try {
      comm::require_backend(b);
      FAIL("expected an error");
    } catch (const ConfigError& e) {
      CHECK(std::string(e.what()).find(b == "mpi" ? "MLSYS_WITH_MPI" : "MLSYS_WITH_CUDA") != std::string::npos);
    }
  }
  CHECK_THROWS_WITH_AS(comm::require_backend("carrier-pigeon"), doctest::Contains("valid: inproc, mpi, nccl"), ConfigError);
  CHECK_THROWS_WITH_AS(comm::require_backend("npi"), doctest::Contains("did you mean 'mpi'"), ConfigError);
  CommOptions o;
  o.world_size = 3;
  std::atomic<int> ranks{0};
  comm::run_ranks(o, [&](comm::Communicator& c) {
    ranks += c.rank() + 1;
    CHECK(c.size() == 3);
  });
  CHECK(ranks == 6);
  o.world_size = 1;
  auto one = comm::make_communicator(o);
  CHECK(one->size() == 1);
  float x = 3;
  one->all_reduce(&x, 1, DType::f32);
  CHECK(x == 3);
  o.world_size = 2;
  CHECK_THROWS_WITH_AS(comm::make_communicator(o), doctest::Contains("run_ranks"), ConfigError);
}
