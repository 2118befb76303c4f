#pragma once
// What a scheduler does after an attempt of a job failed: the `failure_action` column of the hints
// file. SchedMate's failure handler chooses it (sched/schedmate/failure/), the simulator acts on it
// (`sim.retry.policy: hints`). The names below are the only spelling of these actions.
#include <cstdint>
#include <string>
#include <string_view>

namespace mlsys::workload {

enum class FailureAction : uint8_t {
  None,                 // no advice (an empty column): a scheduler resubmits as it would anyway
  Resubmit,             // resubmit
  ResubmitExcludeNode,  // resubmit_exclude_node: retry away from the node(s) the attempt ran on
  ResubmitMoreMemory,   // resubmit_more_memory: retry only with more memory
  DoNotRetry,           // do_not_retry: the failure would recur (a bug, a bad config)
};

const char* to_string(FailureAction a);  // "" for None
// Parses a name of to_string ("" = None); throws ConfigError listing the valid names.
FailureAction parse_failure_action(std::string_view name);
// "(empty), resubmit, resubmit_exclude_node, resubmit_more_memory, do_not_retry", for messages.
std::string failure_action_names();

}  // namespace mlsys::workload
