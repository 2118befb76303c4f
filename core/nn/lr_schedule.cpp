#include "core/nn/lr_schedule.hpp"

namespace mlsys::nn {

LrScheduleRegistry& lr_schedule_registry() {
  static LrScheduleRegistry r("learning-rate schedule");
  return r;
}

}  // namespace mlsys::nn
