#include "sim/engine/failures.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <unordered_map>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "core/util/strings.hpp"
#include "sim/estimators/estimator.hpp"

namespace mlsys::sim {
namespace {

struct Cause {
  FailureCause cause;
  double duration;  // < 0: none given
};

// CSV with a header naming job_id and cause (any order), optionally duration_s.
std::unordered_map<std::string, Cause> read_causes(const std::string& path) {
  std::istringstream in(read_file(path));
  std::string line;
  if (!std::getline(in, line)) throw InputError(path + ":1: empty; expected a header job_id,cause[,duration_s]");
  if (!line.empty() && line.back() == '\r') line.pop_back();
  int id_col = -1, cause_col = -1, dur_col = -1;
  auto head = split(line, ',');
  for (size_t c = 0; c < head.size(); ++c) {
    auto h = trim(head[c]);
    if (h == "job_id") id_col = static_cast<int>(c);
    if (h == "cause") cause_col = static_cast<int>(c);
    if (h == "duration_s") dur_col = static_cast<int>(c);
  }
  if (id_col < 0 || cause_col < 0) throw InputError(path + ":1: expected a header with job_id and cause (and optionally duration_s)");
  std::unordered_map<std::string, Cause> out;
  int64_t line_no = 1;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (trim(line).empty()) continue;
    auto f = split(line, ',');
    auto where = [&](int col) { return path + ":" + std::to_string(line_no) + ":" + std::to_string(col + 1); };
    const int need = std::max({id_col, cause_col, dur_col});
    if (static_cast<int>(f.size()) <= need) throw InputError(where(0) + ": expected " + std::to_string(head.size()) + " columns");
    Cause c{FailureCause::Transient, -1};
    try {
      c.cause = parse_failure_cause(std::string(trim(f[cause_col])));
    } catch (const ConfigError& e) {
      throw InputError(where(cause_col) + ": " + e.what());
    }
    if (dur_col >= 0 && !trim(f[dur_col]).empty()) {
      std::string v(trim(f[dur_col]));
      size_t used = 0;
      try {
        c.duration = std::stod(v, &used);
      } catch (...) {
        used = 0;
      }
      if (used != v.size() || !(c.duration >= 0) || !std::isfinite(c.duration))
        throw InputError(where(dur_col) + ": duration_s = '" + v + "' is not a number >= 0");
    }
    out[std::string(trim(f[id_col]))] = c;
  }
  return out;
}

}  // namespace

const char* to_string(FailureCause c) {
  switch (c) {
    case FailureCause::Transient: return "transient";
    case FailureCause::Node: return "node";
    case FailureCause::Memory: return "memory";
    case FailureCause::Persistent: return "persistent";
  }
  return "transient";
}

const char* to_string(RetryAction a) {
  switch (a) {
    case RetryAction::Resubmit: return "resubmit";
    case RetryAction::ExcludeNode: return "resubmit_exclude_node";
    case RetryAction::MoreMemory: return "resubmit_more_memory";
    case RetryAction::DoNotRetry: return "do_not_retry";
  }
  return "resubmit";
}

const char* to_string(JobOutcome o) {
  switch (o) {
    case JobOutcome::Completed: return "completed";
    case JobOutcome::Recovered: return "recovered";
    case JobOutcome::Failed: return "failed";
    case JobOutcome::NotRetried: return "not_retried";
    case JobOutcome::RetriesExhausted: return "retries_exhausted";
  }
  return "completed";
}

std::vector<std::string> failure_cause_names() { return {"transient", "node", "memory", "persistent"}; }

FailureCause parse_failure_cause(const std::string& name) {
  for (auto c : {FailureCause::Transient, FailureCause::Node, FailureCause::Memory, FailureCause::Persistent})
    if (name == to_string(c)) return c;
  throw ConfigError("unknown failure cause '" + name + "'; valid: " + join(failure_cause_names(), ", "));
}

RetryAction parse_retry_action(const std::string& action) {
  if (action.empty()) return RetryAction::Resubmit;
  for (auto a : {RetryAction::Resubmit, RetryAction::ExcludeNode, RetryAction::MoreMemory, RetryAction::DoNotRetry})
    if (action == to_string(a)) return a;
  throw ConfigError("unknown failure action '" + action +
                    "'; valid: (empty), resubmit, resubmit_exclude_node, resubmit_more_memory, do_not_retry");
}

FailureMetrics failure_metrics(const std::vector<JobRecord>& jobs) {
  FailureMetrics m;
  for (const auto& j : jobs) {
    if (j.failed_attempts == 0) continue;
    ++m.failed_jobs;
    m.failed_attempts += j.failed_attempts;
    m.retries += j.retries;
    m.wasted_gpu_hours += j.wasted_gpu_s / 3600.0;
    m.recovered += j.outcome == JobOutcome::Recovered;
    m.not_retried += j.outcome == JobOutcome::NotRetried;
    m.retries_exhausted += j.outcome == JobOutcome::RetriesExhausted;
    m.abandoned += j.outcome != JobOutcome::Recovered;
  }
  return m;
}

void apply_failure_model(const std::vector<JobSpec>& jobs, const RetryOptions& o, const std::string& hints_file,
                         std::vector<EngineJob>& all, EngineOptions& eopt) {
  if (o.policy != "none" && o.policy != "all" && o.policy != "hints")
    throw ConfigError("sim.retry.policy = '" + o.policy + "'; valid: none, all, hints");
  eopt.max_retries = o.policy == "none" ? 0 : o.max_retries;
  eopt.retry_delay = o.delay_s;
  const FailureCause default_cause = parse_failure_cause(o.default_cause);
  std::unordered_map<std::string, Cause> causes;
  if (!o.causes_file.empty()) causes = read_causes(o.causes_file);
  std::unordered_map<std::string, Hint> hints;
  if (o.policy == "hints") {
    if (hints_file.empty())
      throw ConfigError("sim.retry.policy = hints acts on the failure_action column of sim.hints_file; set sim.hints_file "
                        "(the hints.csv `mlsys schedmate advise` writes)");
    hints = read_hints(hints_file);
  }
  for (size_t i = 0; i < jobs.size(); ++i) {
    const auto& j = jobs[i];
    auto& f = all[i].failure;
    f = JobFailure{};
    f.fails = j.state == JobState::Failed || (o.killed && j.state == JobState::Killed);
    if (!f.fails) continue;
    f.cause = default_cause;
    f.retry_duration = o.success_factor * j.duration;
    if (auto it = causes.find(j.id); it != causes.end()) {
      f.cause = it->second.cause;
      if (it->second.duration >= 0) f.retry_duration = it->second.duration;
    }
    if (auto it = hints.find(j.id); it != hints.end()) f.action = it->second.action;
  }
}

}  // namespace mlsys::sim
