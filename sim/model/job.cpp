#include "sim/model/job.hpp"

namespace mlsys::sim {

const char* to_string(JobState s) {
  switch (s) {
    case JobState::Completed: return "completed";
    case JobState::Failed: return "failed";
    case JobState::Killed: return "killed";
    default: return "unknown";
  }
}

}  // namespace mlsys::sim
