#pragma once
// The Bounded Staleness Adaptor's settings (`gnn.staleness.*`), declared once and nested into the
// gnn section. The halo widths it starts from and pipelining are gnn.fwd_bits, gnn.bwd_bits and
// gnn.pipeline.
#include "core/config/schema.hpp"

namespace mlsys::gnn {

struct StalenessOptions {
  int bound = 0;            // K: fresh synchronous epoch at least every K epochs (0 = never forced)
  // The width of a pipelined run's fresh (synchronous) epochs, forward and backward, when wider
  // than the epoch's own (0 = the epoch's own). Why: a fresh epoch uses the rows as they arrive,
  // while stale epochs can use the smoothed average (gnn.halo.smoothing), so a 1-bit fresh epoch
  // is the noisiest of the run; its traffic is paid once every K epochs.
  int fresh_bits = 0;
  bool adaptive = false;    // adaptive mode
  int window = 5;           // epochs in the loss-trend window
  double tolerance = 0.002;  // relative smoothed-loss change counted as a stall
  int cooldown = 10;        // epochs after any switch in which no further switch happens
  int hold = 20;            // epochs an escalated width is kept before it may relax (hysteresis)
};

// The block nested as `staleness` into the gnn section.
const config::Section<StalenessOptions>& staleness_section();

}  // namespace mlsys::gnn
