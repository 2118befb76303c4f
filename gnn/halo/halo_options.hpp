#pragma once
// How halo rows are exchanged (`gnn.halo.*`), declared once and nested into the gnn section. The
// widths themselves are gnn.fwd_bits / gnn.bwd_bits (and the adaptor's ladder); these keys say
// what is quantized and how (docs/train-gnn.md has the ablation of each against the 1-bit failures).
#include "core/config/schema.hpp"

namespace mlsys::gnn {

struct HaloOptions {
  // The input layer's halo rows (raw features, which never change) are fetched once at full
  // precision before training and kept: layer 0 then computes its halo rows locally and exchanges
  // nothing, forward or backward. Off: layer 0 exchanges (and quantizes) like every other layer.
  bool cache_input = true;
  // Values per quantization range: each run of this many consecutive values of a block gets its
  // own min and scale (0 = one range per row, the codec's own layout).
  int range_values = 0;
  // Error feedback: what quantization lost on a row this epoch is added to the row sent next epoch
  // (per layer and direction), so errors cancel over epochs instead of accumulating.
  bool error_feedback = false;
  // The first N epochs exchange fp32 (then the configured widths apply).
  int fp32_warmup = 0;
  // Pipelined (stale) epochs use a moving average of the halo rows that arrived, per layer and
  // direction, instead of the last arrival alone: m = smoothing * m + (1 - smoothing) * arrived
  // (PipeGCN's feature and gradient smoothing). It averages out the stochastic codec's noise over
  // epochs and damps the oscillation that stale gradients cause; a synchronous epoch uses its
  // exact rows and adds them to the average. 0 = off.
  double smoothing = 0;
  // With smoothing: a synchronous epoch also uses the average its rows have just joined, instead
  // of the rows as they arrived. Why: with 1-bit rows the average is far less noisy than one
  // arrival, and a run that alternates between the two sees every synchronous epoch as a jump.
  bool smooth_fresh = false;
};

// The block nested as `halo` into the gnn section.
const config::Section<HaloOptions>& halo_section();

}  // namespace mlsys::gnn
