// Cosine annealing without restarts (Loshchilov & Hutter 2017): the rate falls from the base rate
// at the first step towards 0 at the end, 0.5 * (1 + cos(pi * step / total)). Why a trainer wants
// it: the updates shrink as training ends, so the final weights settle instead of moving with the
// last steps' noise (stale or quantized halos, dropout).
#include <algorithm>
#include <cmath>

#include "core/nn/lr_schedule.hpp"

namespace mlsys::nn {
namespace {

class CosineSchedule final : public LrSchedule {
 public:
  double factor(int64_t step, int64_t total) const override {
    if (total <= 0) return 1.0;
    const double progress = std::clamp(static_cast<double>(step) / static_cast<double>(total), 0.0, 1.0);
    return 0.5 * (1.0 + std::cos(M_PI * progress));
  }
};

}  // namespace

static const bool registered_cosine = lr_schedule_registry().add(
    "cosine", "Cosine annealing: the base rate at the first step, falling to 0 at the last (0.5 * (1 + cos(pi * step / total)))",
    [] { return std::make_unique<CosineSchedule>(); });

}  // namespace mlsys::nn
