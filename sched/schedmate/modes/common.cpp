#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "core/log/log.hpp"
#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "sched/schedmate/failure/failure_handler.hpp"
#include "sched/schedmate/generator/job_generator.hpp"
#include "sched/schedmate/jobs/job_source.hpp"
#include "sched/schedmate/modes/modes.hpp"
#include "sched/workload/hints.hpp"

namespace mlsys::schedmate {

std::unique_ptr<Analyzer> make_analyzer(const RunContext& ctx, const SchedmateOptions& o) {
  return analyzer_registry().create(o.analyzer, analyzer_options(o, ctx.path("llm_audit.jsonl").string()));
}

AnalyzerOptions analyzer_options(const SchedmateOptions& o, const std::string& audit_path) {
  AnalyzerOptions a = o.openai;
  a.max_json_depth = o.limits.max_json_depth;
  a.audit_path = a.audit ? audit_path : std::string();
  return a;
}

std::vector<AdvisedJob> input_jobs(RunContext& ctx, const SchedmateOptions& o, Analyzer& analyzer) {
  std::vector<AdvisedJob> jobs;
  Json& inputs = ctx.summary()["inputs"];
  if (!inputs.is_object()) inputs = Json::object();
  inputs["jobs"] = o.jobs.empty() ? std::string("generated") : o.jobs;
  inputs["throughputs"] = o.throughputs.empty() ? std::string("none") : o.throughputs;
  if (o.jobs.empty()) {
    JobGenSpec g;
    g.jobs = o.gen_jobs;
    g.seed = ctx.seed();
    jobs = generate_jobs(g);
  } else {
    JobSourceOptions s;
    s.path = o.jobs;
    s.format = o.jobs_format;
    s.gpu_type = o.gpu_type;
    s.throughputs = o.throughputs;
    s.limits = o.limits;
    s.script_dir = o.script_dir;
    s.exclude_ids = o.exclude_ids;
    jobs = load_jobs(s);
  }
  // The run record (summary.json "run.inputs"): path, size and content hash of what was read
  // (after the load, which names a missing file as the config error it is).
  if (o.jobs.empty()) ctx.record_builtin_input("schedmate.jobs", "generated jobs (seed " + std::to_string(ctx.seed()) + ")");
  else ctx.record_input("schedmate.jobs", o.jobs);
  if (!o.jobs.empty() && !o.throughputs.empty()) ctx.record_input("schedmate.throughputs", o.throughputs);
  // Identical texts need one extraction (an LLM backend would otherwise be asked per job).
  std::map<std::string, JobFacts> seen;
  for (auto& j : jobs) {
    std::string key = j.text.command + "\n" + j.text.script + "\n" + j.text.name + "\n" + std::to_string(j.text.num_gpus) +
                      "\n" + j.text.gpu_type;
    auto it = seen.find(key);
    if (it == seen.end()) it = seen.emplace(key, analyzer.extract(j.text, j.id)).first;
    j.facts = it->second;
    j.facts.num_gpus = j.text.num_gpus;
    if (j.text.trace_steps > 0 && !(j.facts.steps > 0)) j.facts.steps = j.text.trace_steps;
    // Steps differ between jobs sharing a text only when the trace states them separately.
    if (j.text.trace_steps > 0) j.facts.steps = j.text.trace_steps;
  }
  return jobs;
}

std::vector<std::string> input_log_files(const SchedmateOptions& o) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::vector<std::string> named = o.logs;
  if (!o.log.empty()) named.insert(named.begin(), o.log);
  for (const auto& p : named) {
    if (fs::is_directory(p)) {
      // Every *.log / *.txt below the folder (MLPerf keeps its logs at <org>/results/<system>/...).
      std::vector<std::string> found;
      for (auto& e : fs::recursive_directory_iterator(p, fs::directory_options::skip_permission_denied))
        if (e.is_regular_file() && (e.path().extension() == ".log" || e.path().extension() == ".txt"))
          found.push_back(e.path().string());
      if (found.empty()) throw Error("log folder " + p + " holds no *.log or *.txt files (schedmate.logs)");
      std::sort(found.begin(), found.end());
      out.insert(out.end(), found.begin(), found.end());
    } else if (fs::exists(p) || (o.follow && o.follow_wait_s > 0)) {  // a followed log may appear later
      out.push_back(p);
    } else {
      require_input(p, p == o.log ? "schedmate.log (--log)" : "schedmate.logs", InputKind::Any,
                    o.follow ? "a job log file (set schedmate.follow_wait_s to wait for one that a job will write)"
                             : "a job log file or a folder of *.log files");
    }
  }
  return out;
}

Json LogReadStats::to_json() const {
  return Json(Json::Object{{"files", files}, {"cut_lines", cut_lines}, {"annotations_skipped", annotations}});
}

std::vector<std::string> read_log_lines(const std::string& path, const SchedmateOptions& o, LogReadStats* stats) {
  LogText t = read_log(path, o.limits, o.annotations == "read");
  if (stats) {
    ++stats->files;
    stats->cut_lines += t.cut_lines;
    stats->annotations += t.annotations;
  }
  return std::move(t.lines);
}

void report_analyzer(RunContext& ctx, const Analyzer& analyzer) {
  const AnalyzerStats s = analyzer.stats();
  ctx.summary()["analyzer"] = s.to_json();
  if (s.fallbacks > 0)
    log::warn("{} analyzer: {} answer(s) came from the embedded analyzer instead ({} request errors, {} invalid replies, "
              "{} over budget); see analyzer in summary.json",
              analyzer.name(), s.fallbacks, s.errors, s.invalid, s.over_budget);
}

std::string fixed3(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

Table hints_table(const std::vector<Prediction>& preds, const std::map<std::string, FailureAction>& actions) {
  std::vector<workload::Hint> hints;
  hints.reserve(preds.size());
  for (const auto& p : preds) {
    auto it = actions.find(p.job_id);
    hints.push_back({p.job_id, p.duration_s, p.uncertainty_s, it == actions.end() ? FailureAction::None : it->second});
  }
  return workload::hints_table(hints);
}

AdviseOutcome advise_jobs(RunContext& ctx, const std::vector<AdvisedJob>& jobs,
                          const std::map<std::string, FailureAction>& actions, const SchedmateOptions& o) {
  AdviseOutcome out;
  out.result = predict_online_by_vc(jobs, o.advisor);
  Table pred({"job_id", "user", "name", "submit_time", "predicted_duration_s", "uncertainty_s", "steps_per_s", "source",
              "similarity", "helios_style_s", "true_duration_s", "model", "batch_size", "steps", "num_gpus"});
  std::string jsonl;
  std::vector<double> p, h, t;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const auto& j = jobs[i];
    const auto& pr = out.result.schedmate[i];
    pred.add_row({j.id, j.user, j.name, j.submit_time, pr.duration_s, pr.uncertainty_s,
                  std::isnan(pr.steps_per_s) ? 0.0 : pr.steps_per_s, pr.source, pr.similarity, out.result.helios[i],
                  std::isnan(j.duration) ? 0.0 : j.duration, pr.facts.model,
                  std::isnan(pr.facts.batch_size) ? 0.0 : pr.facts.batch_size, std::isnan(pr.facts.steps) ? 0.0 : pr.facts.steps,
                  static_cast<int64_t>(pr.facts.num_gpus)});
    Json row = pr.to_json();
    row["helios_style_s"] = out.result.helios[i];
    jsonl += row.dump() + "\n";
    if (j.duration > 0) {
      p.push_back(pr.duration_s);
      h.push_back(out.result.helios[i]);
      t.push_back(j.duration);
    }
  }
  out.with_truth = t.size();
  out.within10 = within(p, t, 0.1);
  out.within50 = within(p, t, 0.5);
  out.helios_within10 = within(h, t, 0.1);
  out.helios_within50 = within(h, t, 0.5);
  ctx.write_table("predictions.csv", pred);
  ctx.write_text("predictions.jsonl", jsonl);
  ctx.write_table("hints.csv", hints_table(out.result.schedmate, actions));
  (void)o;
  return out;
}

}  // namespace mlsys::schedmate
