#include "sched/api/penalty.hpp"

#include <string>

namespace mlsys::sched {
namespace {

// The keys <stem>_1gpu_s, <stem>_8gpu_s and <stem>_large_s of one penalty.
void declare(config::Section<PenaltyModel>& s, const std::string& stem, const char* one_gpu, const char* up_to_8,
             const char* above_8) {
  s.field(stem + "_1gpu_s", &PenaltyModel::one_gpu_s, one_gpu).range(0, 1e9);
  s.field(stem + "_8gpu_s", &PenaltyModel::up_to_8_s, up_to_8).range(0, 1e9);
  s.field(stem + "_large_s", &PenaltyModel::above_8_s, above_8).range(0, 1e9);
}

}  // namespace

const config::Section<PenaltyModel>& preemption_penalty_section() {
  static const config::Section<PenaltyModel> s("preempt", "Checkpoint/restore penalty of a preempted job", [](auto& s) {
    declare(s, "preempt", "Checkpoint/restore penalty of a preempted 1-GPU job (Helios: 7 s)",
            "... of a 2-8 GPU job (Helios: 30 s)", "... of a job above 8 GPUs (Helios: 60 s)");
  });
  return s;
}

const config::Section<PenaltyModel>& migration_penalty_section() {
  static const config::Section<PenaltyModel> s("migrate", "Penalty of a migrated job", [](auto& s) {
    declare(s, "migrate", "Migration penalty of a 1-GPU job", "Migration penalty of a 2-8 GPU job",
            "Migration penalty of a job above 8 GPUs");
  });
  return s;
}

}  // namespace mlsys::sched
