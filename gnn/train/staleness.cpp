#include "gnn/train/staleness.hpp"

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
  if (fresh) last_fresh_ = epoch;
  force_fresh_ = false;
  return p;
}

void StalenessAdaptor::observe(int epoch, double loss) {
  if (!adaptive_) return;
  const double alpha = 2.0 / (o_.window + 1.0);
  ema_ = have_ema_ ? alpha * loss + (1 - alpha) * ema_ : loss;
  have_ema_ = true;
  history_.push_back(ema_);
  ++since_switch_;
  const size_t w = static_cast<size_t>(o_.window);
  if (since_switch_ < o_.window || history_.size() <= w) return;
  const double old = history_[history_.size() - 1 - w];
  const double r = old > 0 ? (old - ema_) / (static_cast<double>(w) * old) : 0.0;
  int nf = fwd_, nb = bwd_;
  std::string what;
  if (r < o_.tolerance) {
    nf = step(fwd_, +1, fwd_floor_);
    nb = step(bwd_, +1, bwd_floor_);
    what = "escalate";
    force_fresh_ = true;
  } else if (r > 4 * o_.tolerance) {
    nf = step(fwd_, -1, fwd_floor_);
    nb = step(bwd_, -1, bwd_floor_);
    what = "relax";
  }
  if (what.empty() || (nf == fwd_ && nb == bwd_ && what == "relax")) return;
  switches_.push_back({epoch, what, fwd_, nf, bwd_, nb, r});
  if (verbose_)
    log::info("staleness adaptor: epoch {} {} (loss trend {:.5f}/epoch): fwd bits {} -> {}, bwd bits {} -> {}{}", epoch, what,
            r, fwd_, nf, bwd_, nb, what == "escalate" ? ", next epoch synchronous" : "");
  fwd_ = nf;
  bwd_ = nb;
  since_switch_ = 0;
}

StalenessAdaptor::State StalenessAdaptor::state() const { return {fwd_, bwd_, last_fresh_, ema_, since_switch_}; }

void StalenessAdaptor::restore(const State& s) {
  fwd_ = s.fwd_bits;
  bwd_ = s.bwd_bits;
  last_fresh_ = s.last_fresh;
  ema_ = s.ema;
  have_ema_ = true;
  since_switch_ = 0;
  force_fresh_ = true;
}

}  // namespace mlsys::gnn
