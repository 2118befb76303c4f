// The base learning rate at every step.
#include "core/nn/lr_schedule.hpp"

namespace mlsys::nn {
namespace {

class ConstantSchedule final : public LrSchedule {
 public:
  double factor(int64_t, int64_t) const override { return 1.0; }
};

}  // namespace

static const bool registered_constant = lr_schedule_registry().add(
    "constant", "The base learning rate at every step", [] { return std::make_unique<ConstantSchedule>(); });

}  // namespace mlsys::nn
