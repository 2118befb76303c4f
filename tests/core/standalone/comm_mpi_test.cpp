// Every collective case on the mpi backend. Run by ctest through `mpirun -np 2` and `-np 4`
// (tests/core/extra.cmake); every process runs these doctest cases on its own rank.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "core/comm/comm_error.hpp"
#include "core/comm/factory.hpp"
#include "core/comm/quantized.hpp"
#include "core/process/system.hpp"
#include "tests/common/skip.hpp"
#include "tests/core/comm/collective_cases.hpp"

using namespace mlsys;

namespace {

comm::Communicator& world() {
  static std::unique_ptr<comm::Communicator> c = [] {
    CommOptions o;
    o.backend = "mpi";
    o.timeout_s = 60;
    return comm::make_communicator(o);
  }();
  return *c;
}

}  // namespace

TEST_CASE("comm/mpi: every collective case") {
  auto& c = world();
  REQUIRE(c.backend() == "mpi");
  for (const auto& tc : test::collective_cases()) {
    CAPTURE(tc.name);
    CAPTURE(c.rank());
    CHECK_NOTHROW(tc.body(c));
  }
}

TEST_CASE("comm/mpi: quantized all-to-all reports wire bytes in the counters") {
  auto& c = world();
  c.reset_stats();
  test::collective_cases();  // the quantized case above checked values; here only the counters
  std::vector<size_t> rows(size_t(c.size()), 10);
  std::vector<float> send(10 * 128 * size_t(c.size()), 1.5f), recv(send.size());
  for (size_t i = 0; i < send.size(); ++i) send[i] = float(i % 17);
  auto codec = quant::unbiased_codec(1);
  auto vol = comm::all_to_all_v_quantized(c, *codec, send.data(), rows, recv.data(), rows, 128, 3);
  auto st = c.stats();
  CHECK(st.raw_bytes == vol.raw_bytes);
  CHECK(st.wire_bytes == vol.wire_bytes);
  CHECK(vol.ratio() > 25.0);
}

// Run alone by ctest (core/comm/nccl_mpi_np2): the cases across ranks on the nccl backend, one GPU
// per rank. NCCL refuses two ranks on one GPU, so with fewer GPUs than ranks this is skipped.
TEST_CASE("comm/nccl: every collective case, one GPU per rank") {
  auto b = comm::backend_registry().create("nccl");
  BackendStatus s = b->status();
  const int gpus = s.available ? cuda_device_count() : 0;
  auto& w = world();
  // Every rank must take the same decision, or the others would wait for it.
  const int64_t ok = w.all_reduce_value<int64_t>(gpus >= w.size() ? 1 : 0, comm::ReduceOp::min);
  if (!s.available) MLSYS_SKIP("no-nccl", "nccl backend unavailable: " << s.detail);
  if (!ok)
    MLSYS_SKIP("gpus<ranks", "NCCL needs one GPU per rank (it refuses two ranks on one GPU); "
                                 << gpus << " visible for " << w.size() << " ranks");
  CommOptions o;
  o.backend = "nccl";
  o.timeout_s = 60;
  auto c = comm::make_communicator(o);
  for (const auto& tc : test::collective_cases()) {
    CAPTURE(tc.name);
    CHECK_NOTHROW(tc.body(*c));
  }
}

// Run alone by ctest (core/comm/mpi_timeout): rank 1 skips a barrier, so rank 0 must fail within
// its timeout naming rank and operation; the MPI job is then aborted at exit (no hang).
TEST_CASE("comm/mpi: a missing peer ends in a timeout error, not a hang" * doctest::skip()) {
  CommOptions o;
  o.backend = "mpi";
  o.timeout_s = 1;
  auto c = comm::make_communicator(o);
  if (c->rank() == 0) {
    try {
      c->barrier();
      FAIL("barrier returned although rank 1 never entered it");
    } catch (const comm::CommTimeoutError& e) {
      std::printf("observed: %s\n", e.what());
      std::fflush(stdout);
    }
  }
}

// Run alone by ctest (core/comm/mpi_dead_rank): rank 1 dies in the middle of the job; rank 0,
// waiting in a barrier, must not hang: mpirun ends the job or rank 0's wait times out.
TEST_CASE("comm/mpi: a rank that dies does not leave the others hanging" * doctest::skip()) {
  CommOptions o;
  o.backend = "mpi";
  o.timeout_s = 5;
  auto c = comm::make_communicator(o);
  c->barrier();
  if (c->rank() == 1) {
    std::printf("rank 1 dies now\n");
    std::fflush(stdout);
    std::_Exit(3);
  }
  try {
    c->barrier();
  } catch (const comm::CommTimeoutError& e) {
    std::printf("observed: %s\n", e.what());
    std::fflush(stdout);
  }
}

// Run alone by ctest (core/comm/mpi_init_stall): rank 1 stalls before MPI starts. MPI_Init waits
// for every rank, so rank 0 must end after comm.timeout_s with one error naming its rank and the
// operation (and mpirun then ends the job) instead of waiting forever.
TEST_CASE("comm/mpi: a rank that stalls before MPI starts is reported after comm.timeout_s" * doctest::skip()) {
  if (launcher_rank() == 1) std::this_thread::sleep_for(std::chrono::seconds(60));
  CommOptions o;
  o.backend = "mpi";
  o.timeout_s = 2;
  auto c = comm::make_communicator(o);
  FAIL("MPI started although rank 1 never did");
}

// Run alone by ctest (core/comm/mpi_stall): rank 1 stalls mid-run while rank 0 has several
// requests pending. The first wait times out after comm.timeout_s; the others fail at once, so the
// error comes after about 1x the timeout, not one timeout per pending request.
TEST_CASE("comm/mpi: a rank that stalls mid-run is reported within about comm.timeout_s" * doctest::skip()) {
  CommOptions o;
  o.backend = "mpi";
  o.timeout_s = 2;
  auto c = comm::make_communicator(o);
  c->barrier();
  if (c->rank() == 1) {
    std::this_thread::sleep_for(std::chrono::seconds(60));  // ended by the job abort
    return;
  }
  std::vector<std::vector<float>> grads(4, std::vector<float>(1000, 1.0f));
  auto t0 = std::chrono::steady_clock::now();
  std::string err;
  {
    std::vector<comm::Request> pending;
    for (auto& g : grads) pending.push_back(c->iall_reduce(std::span<float>(g)));
    try {
      comm::Request::wait_all(pending);
    } catch (const comm::CommTimeoutError& e) {
      err = e.what();
    }
  }  // dropping the pending requests must not wait out one more timeout each
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (err.empty()) FAIL("the all_reduce returned although rank 1 never entered it");
  std::printf("observed %s 1.5x comm.timeout_s (%.2f s): %s\n", secs < 1.5 * o.timeout_s ? "within" : "NOT within", secs,
              err.c_str());
  std::fflush(stdout);
}
