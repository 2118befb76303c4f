#include "sim/engine/failures.hpp"

#include <algorithm>
#include <unordered_map>

#include "core/io/csv.hpp"
#include "core/util/error.hpp"
#include "core/util/strings.hpp"
#include "sched/workload/hints.hpp"
#include "sched/workload/traces/fields.hpp"
#include "core/util/fs.hpp"

namespace mlsys::sim {
namespace {

struct Cause {
  FailureCause cause;
  double duration;  // < 0: none given
};

// CSV with a header naming job_id and cause (any order), optionally duration_s.
std::unordered_map<std::string, Cause> read_causes(const std::string& path) {
  CsvReader in(path);
  in.read_header();
  const int id_col = in.column("job_id"), cause_col = in.column("cause"), dur_col = in.column("duration_s");
  if (id_col < 0 || cause_col < 0)
    throw InputError(path + ":" + std::to_string(in.header_line()) +
                     ": expected a header with job_id and cause (and optionally duration_s)");
  const int need = std::max({id_col, cause_col, dur_col});
  std::unordered_map<std::string, Cause> out;
  while (in.next()) {
    auto where = [&](int col) { return in.where(col + 1); };
    if (!in.complete()) throw InputError(in.where() + ": unclosed quote");
    if (static_cast<int>(in.fields().size()) <= need)
      throw InputError(where(0) + ": expected " + std::to_string(in.names().size()) + " columns");
    Cause c{FailureCause::Transient, -1};
    try {
      c.cause = parse_failure_cause(std::string(trim(in.field(cause_col))));
    } catch (const ConfigError& e) {
      throw InputError(where(cause_col) + ": " + e.what());
    }
    if (dur_col >= 0 && !trim(in.field(dur_col)).empty()) {
      std::string v(trim(in.field(dur_col)));
      auto d = workload::parse_double(v);
      if (!d || *d < 0) throw InputError(where(dur_col) + ": duration_s = '" + v + "' is not a number >= 0");
      c.duration = *d;
    }
    out[std::string(trim(in.field(id_col)))] = c;
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

void apply_failure_model(const std::vector<workload::JobSpec>& jobs, const RetryOptions& o, const std::string& hints_file,
                         std::vector<EngineJob>& all, EngineOptions& eopt) {
  const auto& policies = retry_policy_names();
  if (std::find(policies.begin(), policies.end(), o.policy) == policies.end())
    throw ConfigError("sim.retry.policy = '" + o.policy + "'; valid: " + join(policies, ", "));
  eopt.max_retries = o.policy == "none" ? 0 : o.max_retries;
  eopt.retry_delay = o.delay_s;
  const FailureCause default_cause = parse_failure_cause(o.default_cause);
  std::unordered_map<std::string, Cause> causes;
  if (!o.causes_file.empty()) {
    require_input(o.causes_file, "sim.retry.causes_file", InputKind::File);
    causes = read_causes(o.causes_file);
  }
  std::unordered_map<std::string, workload::Hint> hints;
  if (o.policy == "hints") {
    if (hints_file.empty())
      throw ConfigError("sim.retry.policy = hints acts on the failure_action column of sim.hints_file; set sim.hints_file "
                        "(the hints.csv `mlsys schedmate advise` writes)");
    require_input(hints_file, "sim.hints_file", InputKind::File, "the hints CSV `mlsys schedmate advise` writes");
    hints = workload::read_hints(hints_file);
  }
  for (size_t i = 0; i < jobs.size(); ++i) {
    const auto& j = jobs[i];
    auto& f = all[i].failure;
    f = JobFailure{};
    f.fails = j.state == workload::JobState::Failed || (o.killed && j.state == workload::JobState::Killed);
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
