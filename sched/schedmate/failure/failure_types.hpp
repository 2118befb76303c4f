#pragma once
// Failure categories and the actions SchedMate recommends for them. The actions are the workload
// library's (sched/workload/failure_action.hpp): the `failure_action` column of the hints file
// that `mlsys simulate` acts on (sim.retry.policy: hints).
#include <string>
#include <vector>

#include "sched/workload/failure_action.hpp"

namespace mlsys::schedmate {

enum class FailureCategory {
  None,           // no failure in the log
  NcclTimeout,    // infra: collective/communication timeout (watchdog)
  GpuHardware,    // infra: Xid, ECC, GPU fallen off the bus
  NodeFailure,    // infra: node lost, kernel panic, machine check
  Network,        // infra: connection reset/refused, IB errors
  Storage,        // infra: I/O error, stale handle, disk full
  GpuOom,         // user: CUDA out of memory
  HostOom,        // user: host RAM OOM killer / SIGKILL
  ScriptError,    // user: import, file, syntax, type errors
  BadConfig,      // user: bad arguments or configuration
  CrashAfterProgress,  // run: died after making progress, no rule explains why (a truncated traceback)
  Hang,                // run: progress stopped without an error (stalled until killed)
  NotConverged,        // run: stopped without reaching its quality target (aborted, NaN loss, diverged)
  Unknown,        // failed, but no rule explains it (before any progress)
};

using workload::FailureAction;

const char* to_string(FailureCategory c);
// Parses "infra/nccl_timeout" etc.; throws ConfigError listing the valid names.
FailureCategory parse_category(const std::string& name);
const std::vector<FailureCategory>& all_categories();  // every category, None first
bool is_user_error(FailureCategory c);
bool is_infra_error(FailureCategory c);
// Failures of a run that had got going (crash after progress, hang, not converged): resubmitted
// from the last checkpoint (a new seed for a run that did not converge).
bool is_run_failure(FailureCategory c);
// The only place that maps a category to an action: user errors never get a plain retry.
FailureAction action_for(FailureCategory c);
// One-line human advice that goes with the action.
const char* advice_for(FailureCategory c);

}  // namespace mlsys::schedmate
