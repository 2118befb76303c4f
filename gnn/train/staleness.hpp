#pragma once
// Bounded Staleness Adaptor: decides, before every epoch, whether the epoch is fresh (synchronous
// halo exchange) or stale (pipelined, staleness 1) and which bit widths it uses.
//
// Rules (every rank feeds the same all-reduced loss, so every rank takes the same decisions):
//  1. Epoch 0, and the first epoch after a resume, are fresh: there is no stale data yet.
//  2. Without pipelining every epoch is fresh.
//  3. Bound K > 0: an epoch is forced fresh when K epochs have passed since the last fresh one.
//     A pipelined run's fresh epochs use at least `fresh_bits` (when set) in both directions.
//  4. Adaptive mode: the training loss is smoothed (EMA, alpha = 2 / (window + 1)); every epoch the
//     relative decrease per epoch over the last `window` epochs is
//        r = (s[t - window] - s[t]) / (window * s[t - window]).
//     r < tolerance (stalled or rising)  -> ESCALATE: both bit widths go one step up the ladder
//        of widths the halo exchange offers (quant::unbiased_widths(): 1 -> 2 -> 4 -> 8 -> 32),
//        and the next epoch is forced fresh;
//     r > 4 * tolerance (falling steadily) -> RELAX: one step back down, never below the
//        configured widths.
//     Hysteresis: after any switch nothing switches for `cooldown` epochs (and the window
//     restarts); an escalated width is kept at least `hold` epochs before it may relax; and an
//     escalation that undoes a relaxation raises the floor to the width escalated to, so a width
//     that stalled twice is not tried again and the adaptor settles (at most escalate, relax,
//     escalate per rung of the ladder). A stall again within `hold` epochs of an escalation
//     means quantization is not what stalls training: the adaptor settles (no more switches). Every switch is logged with the measured
//     trend and the threshold it crossed, and listed in switches.csv.
#include <cstdint>
#include <string>
#include <vector>

#include "gnn/train/staleness_options.hpp"

namespace mlsys::gnn {

struct EpochPlan {
  bool stale = false;
  int fwd_bits = 32, bwd_bits = 32;
};

struct Switch {
  int epoch;
  std::string what;  // "escalate" | "relax"
  int fwd_from, fwd_to, bwd_from, bwd_to;
  double trend;      // r, the measured relative decrease of the smoothed loss per epoch
  double threshold;  // the bound r crossed (tolerance, or 4 x tolerance for a relaxation)
  double smoothed_from, smoothed_to;  // the smoothed losses r compares (window epochs apart)
};

class StalenessAdaptor {
 public:
  // fwd_bits/bwd_bits: the configured widths (where epochs start, and the floor when relaxing).
  // exchanging: workers exchange halos (more than one); without it every epoch is fresh, the
  // adaptive rule is off and the widths stay as configured. pipeline: gnn.pipeline.
  // fp32_warmup: the first epochs exchange fp32 (gnn.halo.fp32_warmup).
  StalenessAdaptor(const StalenessOptions& o, int fwd_bits, int bwd_bits, bool pipeline, bool exchanging, int fp32_warmup = 0);
  EpochPlan plan(int epoch);
  // Loss of the epoch just finished (global); may switch bits for the following epochs.
  void observe(int epoch, double loss);
  void force_fresh() { force_fresh_ = true; }
  void set_verbose(bool v) { verbose_ = v; }  // log switches (one rank does)
  const std::vector<Switch>& switches() const { return switches_; }

  // Checkpointed state.
  struct State {
    int fwd_bits, bwd_bits, last_fresh;
    double ema;
    int since_switch;
    int fwd_floor = 0, bwd_floor = 0;  // raised floors (0 = the configured widths)
  };
  State state() const;
  void restore(const State& s);

 private:
  int step(int bits, int dir, int floor) const;
  StalenessOptions o_;
  bool pipeline_, adaptive_;
  int warmup_ = 0;
  int fwd_floor_, bwd_floor_;
  int fwd_, bwd_, last_fresh_ = -1;
  bool force_fresh_ = true;
  double ema_ = 0;
  bool have_ema_ = false;
  std::vector<double> history_;
  int since_switch_ = 0;
  bool relaxed_ = false;   // the last switch was a relaxation
  bool last_escalated_ = false;  // the last switch was an escalation
  bool settled_ = false;   // a stall outlived an escalation: no more switches
  std::vector<Switch> switches_;
  bool verbose_ = true;
  std::vector<int> ladder_;  // the bit widths on offer, ascending
};

}  // namespace mlsys::gnn
