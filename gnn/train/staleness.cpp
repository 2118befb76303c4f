#include "gnn/train/staleness.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "core/log/log.hpp"
#include "core/quant/codec.hpp"

namespace mlsys::gnn {

StalenessAdaptor::StalenessAdaptor(const StalenessOptions& o, int fwd_bits, int bwd_bits, bool pipeline, bool exchanging,
                                   int fp32_warmup)
    : o_(o),
      pipeline_(pipeline && exchanging),
      adaptive_(o.adaptive && exchanging),
      warmup_(exchanging ? fp32_warmup : 0),
      fwd_floor_(fwd_bits),
      bwd_floor_(bwd_bits),
      fwd_(fwd_bits),
      bwd_(bwd_bits),
      ladder_(quant::unbiased_widths()) {}

int StalenessAdaptor::step(int bits, int dir, int floor) const {
  const int top = static_cast<int>(ladder_.size()) - 1;
  int i = 0;
  while (i < top && ladder_[i] < bits) ++i;
  i = std::clamp(i + dir, 0, top);
  return std::max(ladder_[i], floor);
}

EpochPlan StalenessAdaptor::plan(int epoch) {
  EpochPlan p;
  const bool warming = epoch < warmup_;
  p.fwd_bits = warming ? ladder_.back() : fwd_;  // the widest width on offer: lossless fp32
  p.bwd_bits = warming ? ladder_.back() : bwd_;
  bool fresh = force_fresh_ || !pipeline_ || last_fresh_ < 0 || (o_.bound > 0 && epoch - last_fresh_ >= o_.bound);
  p.stale = !fresh;
  if (fresh && pipeline_ && !warming && o_.fresh_bits > 0) {
    p.fwd_bits = std::max(p.fwd_bits, o_.fresh_bits);
    p.bwd_bits = std::max(p.bwd_bits, o_.fresh_bits);
  }
  if (fresh) last_fresh_ = epoch;
  force_fresh_ = false;
  return p;
}

void StalenessAdaptor::observe(int epoch, double loss) {
  if (!adaptive_ || settled_) return;
  const double alpha = 2.0 / (o_.window + 1.0);
  ema_ = have_ema_ ? alpha * loss + (1 - alpha) * ema_ : loss;
  have_ema_ = true;
  history_.push_back(ema_);
  ++since_switch_;
  const size_t w = static_cast<size_t>(o_.window);
  const int quiet = switches_.empty() ? o_.window : std::max(o_.window, o_.cooldown);  // cool-down after a switch
  if (since_switch_ < quiet || history_.size() <= w) return;
  const double old = history_[history_.size() - 1 - w];
  const double r = old > 0 ? (old - ema_) / (static_cast<double>(w) * old) : 0.0;
  const bool escalated = fwd_ > fwd_floor_ || bwd_ > bwd_floor_;
  int nf = fwd_, nb = bwd_;
  std::string what;
  double threshold = 0;
  if (r < o_.tolerance && last_escalated_ && since_switch_ < o_.hold) {
    // The escalation did not restore progress within `hold` epochs: quantization is not what
    // stalls training, so wider halos will not help either. Settle at this width.
    settled_ = true;
    if (verbose_)
      log::info("staleness adaptor: epoch {} settled at fwd {} / bwd {} bits: smoothed loss {:.5f} -> {:.5f}, trend r = {:.5f}/epoch "
                "< {:.5f} again {} epochs after the escalation",
                epoch, fwd_, bwd_, old, ema_, r, o_.tolerance, since_switch_);
    return;
  }
  if (r < o_.tolerance) {
    nf = step(fwd_, +1, fwd_floor_);
    nb = step(bwd_, +1, bwd_floor_);
    what = "escalate";
    threshold = o_.tolerance;
  } else if (r > 4 * o_.tolerance && escalated && since_switch_ >= o_.hold) {
    nf = step(fwd_, -1, fwd_floor_);
    nb = step(bwd_, -1, bwd_floor_);
    what = "relax";
    threshold = 4 * o_.tolerance;
  }
  if (what.empty() || (nf == fwd_ && nb == bwd_)) return;
  const bool undo = what == "escalate" && relaxed_;
  if (what == "escalate") {
    force_fresh_ = true;
    // Undoing a relaxation: the width left stalled twice, so it is not offered again (the floor
    // rises to the width escalated to). This is what makes the adaptor settle.
    if (undo) {
      fwd_floor_ = nf;
      bwd_floor_ = nb;
    }
  }
  relaxed_ = what == "relax";
  last_escalated_ = what == "escalate";
  switches_.push_back({epoch, what, fwd_, nf, bwd_, nb, r, threshold, old, ema_});
  if (verbose_)
    log::info("staleness adaptor: epoch {} {}: smoothed loss {:.5f} -> {:.5f} over {} epochs, trend r = {:.5f}/epoch {} {:.5f}; "
              "fwd bits {} -> {}, bwd bits {} -> {}{}",
              epoch, what, old, ema_, o_.window, r, what == "escalate" ? "<" : ">", threshold, fwd_, nf, bwd_, nb,
              what == "escalate" ? fmt::format(", next epoch synchronous{}", undo ? ", the lower width is not tried again" : "") : "");
  fwd_ = nf;
  bwd_ = nb;
  since_switch_ = 0;
}

StalenessAdaptor::State StalenessAdaptor::state() const {
  return {fwd_, bwd_, last_fresh_, ema_, since_switch_, fwd_floor_, bwd_floor_};
}

void StalenessAdaptor::restore(const State& s) {
  fwd_ = s.fwd_bits;
  bwd_ = s.bwd_bits;
  last_fresh_ = s.last_fresh;
  ema_ = s.ema;
  have_ema_ = true;
  since_switch_ = 0;
  if (s.fwd_floor > 0) fwd_floor_ = s.fwd_floor;
  if (s.bwd_floor > 0) bwd_floor_ = s.bwd_floor;
  force_fresh_ = true;
}

}  // namespace mlsys::gnn
