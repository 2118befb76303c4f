#pragma once
// Per-worker, per-epoch accounting (seconds and bytes), summed into the epoch CSV: the halo
// exchanger's counters plus the trainer's own.
#include <cstdint>

#include "gnn/halo/exchanger.hpp"

namespace mlsys::gnn {

struct EpochStats : HaloCounters {
  double compute_s = 0;  // kernels (forward, backward, optimizer)
  double comm_s = 0;     // link-model seconds when modeled, else measured exchange time
  double reduce_s = 0;   // weight-gradient all-reduce (fp32)
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
