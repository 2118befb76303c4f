#pragma once
// Per-worker, per-epoch accounting (seconds and bytes), summed into the epoch CSV.
#include <cstdint>

namespace mlsys::gnn {

struct EpochStats {
  double compute_s = 0;  // kernels (forward, backward, optimizer)
  double quant_s = 0;    // encoding halo blocks (starting an exchange), receiving and decoding arrived ones
  double comm_s = 0;     // link-model seconds when modeled, else measured exchange time
  double wait_s = 0;     // measured: blocked on halo data / gradients that had not arrived yet
  double reduce_s = 0;   // weight-gradient all-reduce (fp32)
  uint64_t raw_bytes = 0, wire_bytes = 0;  // halo traffic sent by this worker
  uint64_t reduce_bytes = 0;
  void add(const EpochStats& o) {
    compute_s += o.compute_s;
    quant_s += o.quant_s;
    comm_s += o.comm_s;
    wait_s += o.wait_s;
    reduce_s += o.reduce_s;
    raw_bytes += o.raw_bytes;
    wire_bytes += o.wire_bytes;
    reduce_bytes += o.reduce_bytes;
  }
};

}  // namespace mlsys::gnn
