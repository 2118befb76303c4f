#pragma once
// Checkpoint/restore cost of preempting or migrating a job. Defaults follow Helios: 7 s for one
// GPU, 30 s up to 8 GPUs, 60 s above.
#include "core/config/schema.hpp"

namespace mlsys::sched {

struct PenaltyModel {
  double one_gpu_s = 7;
  double up_to_8_s = 30;
  double above_8_s = 60;
  double for_gpus(int gpus) const { return gpus <= 1 ? one_gpu_s : (gpus <= 8 ? up_to_8_s : above_8_s); }
};

// The config keys of the two penalties (nested unprefixed into the `sim:` section):
// preempt_1gpu_s, preempt_8gpu_s, preempt_large_s and migrate_1gpu_s, migrate_8gpu_s, migrate_large_s.
const config::Section<PenaltyModel>& preemption_penalty_section();
const config::Section<PenaltyModel>& migration_penalty_section();

}  // namespace mlsys::sched
