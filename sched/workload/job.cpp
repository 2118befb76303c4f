#include "sched/workload/job.hpp"

namespace mlsys::workload {

const char* to_string(JobState s) {
  switch (s) {
    case JobState::Completed: return "completed";
    case JobState::Failed: return "failed";
    case JobState::Killed: return "killed";
    default: return "unknown";
  }
}

}  // namespace mlsys::workload
