// The communicator backend table (core/comm/backend.hpp): every backend is an entry in every
// build, a backend that is unavailable says why (and asking for it is a ConfigError with that
// reason), run_ranks and make_communicator go through the entry.
#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <vector>

#include "core/comm/factory.hpp"
#include "core/tensor/plugin.hpp"
#include "core/util/error.hpp"

using namespace mlsys;

TEST_CASE("comm/factory: every backend is a registry entry, and those unavailable say why") {
  // The table is the same in every build (so --help and docs/CONFIG.md are too); status() differs.
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
    BackendStatus s = comm::backend_registry().create(b)->status();
    CHECK(s.available == comm::backend_available(b));
    if (s.available) continue;
    CHECK_FALSE(s.detail.empty());
    CHECK_THROWS_WITH_AS(comm::require_backend(b), doctest::Contains(("'" + b + "' is unavailable: " + s.detail).c_str()),
                         ConfigError);
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

TEST_CASE("comm/factory: the backends report lists every device and communicator backend with its status") {
  const std::string r = comm::backends_report();
  for (std::string b : {"cpu", "cuda", "inproc", "mpi", "nccl"}) {
    CAPTURE(b);
    CHECK(r.find("    " + b + " ") != std::string::npos);
  }
  CHECK(r.find("cpu     device       available") != std::string::npos);
  CHECK(r.find("inproc  communicator available") != std::string::npos);
  // The nccl backend needs the cuda one: where cuda is unavailable, nccl names that as its reason.
  if (plugin::find("nccl") && !device_backend_status(Device::Kind::cuda).available)
    CHECK(r.find("needs the cuda device backend, which is unavailable") != std::string::npos);
  if (!plugin::find("nccl")) CHECK(r.find("libmlsys_nccl.so not found") != std::string::npos);
}
