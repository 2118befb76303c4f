#include "sched/workload/failure_action.hpp"

#include <utility>

#include "core/util/error.hpp"

namespace mlsys::workload {
namespace {

constexpr std::pair<FailureAction, const char*> kNames[] = {
    {FailureAction::None, ""},
    {FailureAction::Resubmit, "resubmit"},
    {FailureAction::ResubmitExcludeNode, "resubmit_exclude_node"},
    {FailureAction::ResubmitMoreMemory, "resubmit_more_memory"},
    {FailureAction::DoNotRetry, "do_not_retry"},
};

}  // namespace

const char* to_string(FailureAction a) {
  for (const auto& [action, name] : kNames)
    if (action == a) return name;
  return "";
}

FailureAction parse_failure_action(std::string_view name) {
  for (const auto& [action, n] : kNames)
    if (name == n) return action;
  throw ConfigError("unknown failure action '" + std::string(name) + "'; valid: " + failure_action_names());
}

std::string failure_action_names() {
  std::string out;
  for (const auto& [action, name] : kNames) out += out.empty() ? "(empty)" : std::string(", ") + name;
  return out;
}

}  // namespace mlsys::workload
