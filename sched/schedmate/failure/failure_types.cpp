#include "sched/schedmate/failure/failure_types.hpp"

#include "core/util/error.hpp"
#include "core/util/strings.hpp"

namespace mlsys::schedmate {

const char* to_string(FailureCategory c) {
  switch (c) {
    case FailureCategory::None: return "none";
    case FailureCategory::NcclTimeout: return "infra/nccl_timeout";
    case FailureCategory::GpuHardware: return "infra/gpu_hardware";
    case FailureCategory::NodeFailure: return "infra/node_failure";
    case FailureCategory::Network: return "infra/network";
    case FailureCategory::Storage: return "infra/storage";
    case FailureCategory::GpuOom: return "user/gpu_oom";
    case FailureCategory::HostOom: return "user/host_oom";
    case FailureCategory::ScriptError: return "user/script_error";
    case FailureCategory::BadConfig: return "user/bad_config";
    case FailureCategory::CrashAfterProgress: return "run/crash_after_progress";
    case FailureCategory::Hang: return "run/hang";
    case FailureCategory::NotConverged: return "run/not_converged";
    case FailureCategory::Unknown: return "unknown";
  }
  return "unknown";
}

const std::vector<FailureCategory>& all_categories() {
  static const std::vector<FailureCategory> all = {
      FailureCategory::None,     FailureCategory::NcclTimeout, FailureCategory::GpuHardware,
      FailureCategory::NodeFailure, FailureCategory::Network, FailureCategory::Storage,
      FailureCategory::GpuOom,   FailureCategory::HostOom,     FailureCategory::ScriptError,
      FailureCategory::BadConfig, FailureCategory::CrashAfterProgress, FailureCategory::Hang,
      FailureCategory::NotConverged, FailureCategory::Unknown};
  return all;
}

FailureCategory parse_category(const std::string& name) {
  std::vector<std::string> names;
  for (auto c : all_categories()) {
    if (name == to_string(c)) return c;
    names.push_back(to_string(c));
  }
  throw ConfigError("unknown failure category '" + name + "'; valid: " + join(names, ", "));
}

bool is_user_error(FailureCategory c) {
  return c == FailureCategory::GpuOom || c == FailureCategory::HostOom || c == FailureCategory::ScriptError ||
         c == FailureCategory::BadConfig;
}

bool is_infra_error(FailureCategory c) {
  return c == FailureCategory::NcclTimeout || c == FailureCategory::GpuHardware ||
         c == FailureCategory::NodeFailure || c == FailureCategory::Network || c == FailureCategory::Storage;
}

bool is_run_failure(FailureCategory c) {
  return c == FailureCategory::CrashAfterProgress || c == FailureCategory::Hang || c == FailureCategory::NotConverged;
}

FailureAction action_for(FailureCategory c) {
  switch (c) {
    case FailureCategory::None: return FailureAction::None;
    case FailureCategory::NcclTimeout:
    case FailureCategory::Network:
    case FailureCategory::Storage:
    // The run had got going: its code and configuration work, so resume from the last checkpoint.
    case FailureCategory::CrashAfterProgress:
    case FailureCategory::Hang:
    case FailureCategory::NotConverged: return FailureAction::Resubmit;
    case FailureCategory::GpuHardware:
    case FailureCategory::NodeFailure: return FailureAction::ResubmitExcludeNode;
    // Out-of-memory is the user's sizing problem: a retry is only useful once changed.
    case FailureCategory::GpuOom:
    case FailureCategory::HostOom: return FailureAction::ResubmitMoreMemory;
    case FailureCategory::ScriptError:
    case FailureCategory::BadConfig:
    case FailureCategory::Unknown: return FailureAction::DoNotRetry;
  }
  return FailureAction::DoNotRetry;
}

const char* advice_for(FailureCategory c) {
  switch (c) {
    case FailureCategory::None: return "no failure found";
    case FailureCategory::NcclTimeout: return "transient communication hang: resubmit from the last checkpoint";
    case FailureCategory::GpuHardware: return "faulty GPU: cordon the node and resubmit elsewhere";
    case FailureCategory::NodeFailure: return "node lost: resubmit excluding that node";
    case FailureCategory::Network: return "network fault: resubmit from the last checkpoint";
    case FailureCategory::Storage: return "storage fault: resubmit once the file system is healthy";
    case FailureCategory::GpuOom:
      return "GPU memory exhausted: resubmit only with fewer samples per GPU (smaller batch) or more GPUs";
    case FailureCategory::HostOom: return "host memory exhausted (SIGKILL): resubmit only with more host memory";
    case FailureCategory::ScriptError: return "bug in the job's code: do not retry; notify the user";
    case FailureCategory::BadConfig: return "invalid arguments or configuration: do not retry; notify the user";
    case FailureCategory::CrashAfterProgress:
      return "crashed after making progress (cause not logged): resubmit from the last checkpoint";
    case FailureCategory::Hang: return "progress stopped without an error: resubmit from the last checkpoint";
    case FailureCategory::NotConverged:
      return "stopped without reaching its quality target: resubmit with a new seed, from a checkpoint if the schedule allows";
    case FailureCategory::Unknown: return "cause not recognised: do not retry blindly; notify the user";
  }
  return "";
}

}  // namespace mlsys::schedmate
