#pragma once
// Learning-rate schedules: the factor a trainer multiplies its base rate by at each step, from how
// far through training the step is. A trainer names one in its config (`optim.schedule`); each
// schedule is one file that registers itself with a description (constant_schedule.cpp,
// cosine_schedule.cpp).
#include <cstdint>
#include <memory>
#include <string>

#include "core/registry/registry.hpp"

namespace mlsys::nn {

class LrSchedule {
 public:
  virtual ~LrSchedule() = default;
  // step in [0, total): the factor for that step (1 = the base rate).
  virtual double factor(int64_t step, int64_t total) const = 0;
};

using LrScheduleRegistry = Registry<LrSchedule>;
LrScheduleRegistry& lr_schedule_registry();

}  // namespace mlsys::nn
