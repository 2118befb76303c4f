#include "sched/schedmate/analyzer/analyzer.hpp"

#include "sched/schedmate/tracker/metric_tracker.hpp"

namespace mlsys::schedmate {

Diagnosis diagnose_log(Analyzer& analyzer, const std::vector<std::string>& lines, const std::string& job_key,
                       double stall_factor) {
  TrackerOptions o;
  o.stall_factor = stall_factor;
  o.keep_series = false;
  MetricTracker tr(o);
  for (const auto& l : lines) tr.feed(l);
  const TrackerSnapshot s = tr.snapshot();
  RunEvidence run;
  run.progressed = s.progress_lines > 0;
  run.stalled = s.stalled;
  run.quality = s.quality;
  run.quality_target = s.quality_target;
  return analyzer.diagnose(lines, run, job_key);
}

AnalyzerRegistry& analyzer_registry() {
  static AnalyzerRegistry r("analyzer backend");
  return r;
}

Json AnalyzerStats::to_json() const {
  Json j = Json::object();
  j["calls"] = calls;
  j["cache_hits"] = cache_hits;
  j["fallbacks"] = fallbacks;
  j["invalid_replies"] = invalid;
  j["errors"] = errors;
  j["over_budget"] = over_budget;
  j["format_downgrades"] = format_downgrades;
  return j;
}

}  // namespace mlsys::schedmate
