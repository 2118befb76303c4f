// track: progress, throughput, remaining time and stalls from job logs (or one followed live).
#include <filesystem>

#include "core/util/strings.hpp"
#include "sched/schedmate/eval/log_corpus.hpp"
#include "sched/schedmate/failure/failure_rules.hpp"
#include "sched/schedmate/modes/modes.hpp"
#include "sched/schedmate/tracker/follow.hpp"

namespace mlsys::schedmate {

namespace {

TrackerOptions tracker_options(const SchedmateOptions& o, Analyzer& analyzer, const std::string& key) {
  TrackerOptions t;
  t.stall_factor = o.stall_factor;
  if (o.total_steps > 0) t.total_steps_hint = o.total_steps;
  if (analyzer.name() != "embedded")
    t.learner = [&analyzer, key](const std::vector<std::string>& s) { return analyzer.pattern(s, key); };
  return t;
}

void add_series(Table& t, const std::string& log, const MetricTracker& tr, int every) {
  const auto& s = tr.series();
  for (size_t i = 0; i < s.size(); ++i) {
    if (i % static_cast<size_t>(every) != 0 && i + 1 != s.size()) continue;
    const auto& p = s[i];
    t.add_row({log, p.t, p.done, std::isnan(p.total) ? -1.0 : p.total, std::isnan(p.rate) ? -1.0 : p.rate,
               std::isnan(p.remaining_s) ? -1.0 : p.remaining_s});
  }
}

Json track_record(const std::string& log, const MetricTracker& tr, const std::string& stop) {
  Json j = Json::object();
  j["log"] = log;
  j["progress"] = tr.snapshot().to_json();
  Json st = Json::array();
  for (const auto& s : tr.stalls()) {
    Json e = Json::object();
    e["last_progress_t"] = s.last_progress_t;
    e["flagged_t"] = s.flagged_t;
    e["usual_gap_s"] = s.usual_gap_s;
    e["done"] = s.done;
    st.push_back(e);
  }
  j["stalls"] = st;
  if (tr.learned()) j["learned_pattern"] = tr.learned()->to_json();
  if (!stop.empty()) j["stop_reason"] = stop;
  return j;
}

}  // namespace

void run_track(RunContext& ctx) {
  const auto& o = ctx.get(schedmate_section());
  auto analyzer = make_analyzer(ctx, o);
  Table series({"log", "t", "done", "total", "rate_per_s", "remaining_s"});
  std::string jsonl;
  auto files = input_log_files(o);
  int stalled = 0, tracked = 0;
  if (o.follow) {
    if (files.size() != 1) throw ConfigError("schedmate.follow needs exactly one file in schedmate.logs");
    MetricTracker tr(tracker_options(o, *analyzer, files[0]));
    FollowOptions fo;
    fo.poll_interval_s = o.poll_interval_s;
    fo.idle_timeout_s = o.idle_timeout_s;
    fo.max_s = o.max_follow_s;
    fo.wait_s = o.follow_wait_s;
    fo.max_line_bytes = o.limits.max_line_bytes;
    std::vector<std::string> tail;
    auto res = follow_file(files[0], tr, fo, [&](const std::string& line) {
      tail.push_back(line);
      if (tail.size() > 200) tail.erase(tail.begin());
      return match_failure_rule(normalize_line(line)) == nullptr;  // stop at a failure line
    });
    add_series(series, files[0], tr, o.series_every);
    Json rec = track_record(files[0], tr, res.stop_reason);
    if (res.stop_reason == "stop_line" || tr.snapshot().stalled)
      rec["diagnosis"] = analyzer->diagnose(tail, {tr.snapshot().progress_lines > 0, tr.snapshot().stalled}, files[0]).to_json();
    jsonl += rec.dump() + "\n";
    stalled += tr.snapshot().stalled;
    tracked = 1;
    ctx.say("followed " + files[0] + ": " + std::to_string(res.lines) + " lines, stopped: " + res.stop_reason);
  } else if (files.empty()) {
    // Demo: one generated run per format, one of them hanging.
    auto corpus = generate_corpus(1, o.gen_steps, ctx.seed());
    for (const auto& c : corpus) {
      if (c.spec.failure != FailureCategory::None && c.spec.failure != FailureCategory::NcclTimeout) continue;
      MetricTracker tr(tracker_options(o, *analyzer, c.name));
      for (const auto& l : c.log.lines) tr.feed(l);
      add_series(series, c.name, tr, o.series_every);
      jsonl += track_record(c.name, tr, "").dump() + "\n";
      stalled += tr.snapshot().stalled;
      ++tracked;
    }
  } else {
    for (const auto& f : files) {
      MetricTracker tr(tracker_options(o, *analyzer, f));
      for (const auto& l : read_log_lines(f, o)) tr.feed(l);
      add_series(series, f, tr, o.series_every);
      jsonl += track_record(f, tr, "").dump() + "\n";
      stalled += tr.snapshot().stalled;
      ++tracked;
    }
  }
  ctx.write_table("progress.csv", series);
  ctx.write_text("track.jsonl", jsonl);
  ctx.summary()["logs"] = tracked;
  ctx.summary()["stalled"] = stalled;
  report_analyzer(ctx, *analyzer);
  ctx.say("tracked " + std::to_string(tracked) + " logs (" + std::to_string(stalled) + " stalled); " +
          std::to_string(series.rows()) + " progress points in progress.csv");
}

const bool registered = add_command_mode("schedmate", {"track", "progress, throughput, remaining time and stalls of job logs (--follow: live)", run_track});

}  // namespace mlsys::schedmate
