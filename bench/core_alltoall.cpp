// All-to-all-v throughput, fp32 against 1-bit stochastic rounding (sr1, fp16 metadata), on the
// inproc backend (2 and 4 ranks as threads) and on MPI (2 processes through mpirun, when built),
// with the bytes on the wire measured by the communicator counters. Each rank sends `rows` rows
// of F floats to every other rank (a GNN halo exchange). "fp32-equiv GB/s" is the fp32 payload a
// rank delivers per second; for sr1 the time includes quantize + pack and unpack + dequantize.
// The modeled columns charge every message on a 25 GbE link (comm.link_model, ethernet25).
//   bench_core_alltoall [rows=16384] [F=128] [reps=5]          (spawns the MPI run itself)
//   mpirun -np N bench_core_alltoall [rows] [F] [reps]         (MPI only)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "core/comm/factory.hpp"
#include "core/comm/quantized.hpp"
#include "core/quant/rng.hpp"
#include "core/process/system.hpp"

using namespace mlsys;

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

struct Result {
  double seconds = 0;          // best measured time per all-to-all
  double raw_bytes = 0;        // per rank per call
  double wire_bytes = 0;       // per rank per call
  double modeled_seconds = 0;  // per rank per call (link model)
};

// One rank's part: `reps` timed all-to-alls (after a warm-up), fp32 when codec is null.
Result run_rank(comm::Communicator& c, const quant::Codec* codec, size_t rows, size_t cols, int reps) {
  const size_t n = size_t(c.size());
  std::vector<size_t> rcount(n, rows), fcount(n, rows * cols);
  std::vector<float> send(n * rows * cols), recv(send.size());
  for (size_t i = 0; i < send.size(); ++i)
    send[i] = quant::rng_uniform(quant::rng_bits(quant::rng_row_key(7, uint64_t(c.rank())), uint32_t(i))) - 0.5f;
  auto once = [&](uint64_t seed) {
    if (codec)
      comm::all_to_all_v_quantized(c, *codec, send.data(), rcount, recv.data(), rcount, cols, seed);
    else
      c.all_to_all_v<float>(send, fcount, recv, fcount);
  };
  once(0);
  c.barrier();
  c.reset_stats();
  Result r;
  r.seconds = 1e30;
  for (int i = 0; i < reps; ++i) {
    c.barrier();
    double t0 = now();
    once(uint64_t(i) + 1);
    c.barrier();
    r.seconds = std::min(r.seconds, now() - t0);
  }
  auto st = c.stats();
  r.raw_bytes = codec ? double(st.raw_bytes) / reps : double(rows * cols * 4 * (n - 1));
  r.wire_bytes = codec ? double(st.wire_bytes) / reps : r.raw_bytes;
  r.modeled_seconds = st.modeled_seconds / reps;  // barriers carry 0 bytes: latency only
  return r;
}

void print(const char* backend, int ranks, const char* codec, const Result& r) {
  std::printf("%-7s %5d %-5s %12.1f %14.1f %10.2f %8.1fx %12.3f\n", backend, ranks, codec, r.raw_bytes / 1048576.0,
              r.wire_bytes / 1048576.0, r.raw_bytes / r.seconds / 1e9, r.raw_bytes / r.wire_bytes,
              r.modeled_seconds * 1e3);
}

void header() {
  std::printf("%-7s %5s %-5s %12s %14s %10s %9s %12s\n", "backend", "ranks", "codec", "raw MiB/rank", "wire MiB/rank",
              "fp32eq GB/s", "ratio", "modeled ms");
}

}  // namespace

int main(int argc, char** argv) {
  const size_t rows = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 16384;
  const size_t cols = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 128;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 5;
  auto sr1 = quant::unbiased_codec(1);  // fp16 metadata (the default)
  CommOptions o;
  o.link_model = true;
  o.link_preset = "ethernet25";
  o.timeout_s = 600;

  if (launched_by_mpi_launcher()) {
    o.backend = "mpi";
    auto c = comm::make_communicator(o);
    Result f = run_rank(*c, nullptr, rows, cols, reps);
    Result q = run_rank(*c, sr1.get(), rows, cols, reps);
    if (c->rank() == 0) {
      header();
      print("mpi", c->size(), "fp32", f);
      print("mpi", c->size(), "sr1", q);
      std::printf("(mpi: modeled ms not applicable - the link model is an inproc feature)\n");
    }
    return 0;
  }

  std::printf("core_alltoall: %zu rows x F=%zu per peer, best of %d; modeled = 25 GbE link model (inproc only)\n\n",
              rows, cols, reps);
  header();
  for (int ranks : {2, 4}) {
    for (const quant::Codec* codec :
         {static_cast<const quant::Codec*>(nullptr), static_cast<const quant::Codec*>(sr1.get())}) {
      std::mutex mu;
      Result r0;
      comm::run_inproc(ranks, o, [&](comm::Communicator& c) {
        Result r = run_rank(c, codec, rows, cols, reps);
        if (c.rank() == 0) {
          std::lock_guard<std::mutex> lock(mu);
          r0 = r;
        }
      });
      print("inproc", ranks, codec ? "sr1" : "fp32", r0);
    }
  }
  std::fflush(stdout);
  if (comm::backend_available("mpi")) {
    std::string cmd =
        "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpirun -np 2 --oversubscribe "
        "--mca btl self,vader,tcp --mca btl_vader_single_copy_mechanism none " +
        std::string(argv[0]) + " " + std::to_string(rows) + " " + std::to_string(cols) + " " + std::to_string(reps) +
        " | tail -n +2";
    std::printf("\n$ mpirun -np 2 %s (2 processes)\n", argv[0]);
    std::fflush(stdout);
    if (std::system(cmd.c_str()) != 0) std::printf("(mpirun failed)\n");
  }
  return 0;
}
