#include <doctest/doctest.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "sched/schedmate/eval/log_corpus.hpp"
#include "sched/schedmate/eval/metrics.hpp"
#include "sched/schedmate/generator/log_generator.hpp"
#include "sched/schedmate/tracker/follow.hpp"
#include "sched/schedmate/tracker/metric_tracker.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
using namespace mlsys::schedmate;

TEST_CASE("remaining time within 10% after 5% of a run, for every generated format") {
  for (LogFormat f : generated_formats()) {
    for (uint64_t seed : {1u, 2u, 3u}) {
      LogSpec s;
      s.format = f;
      s.total_steps = 8000;
      s.steps_per_s = 0.3 + 3.0 * static_cast<double>(seed);
      s.jitter = 0.15;
      s.log_every = 5;
      s.seed = seed;
      GeneratedLog g = generate_log(s);
      MetricTracker tr;
      const double run = g.full_run_end_t - g.first_step_t;
      size_t i = 0;
      for (; i < g.lines.size() && g.times[i] - g.first_step_t < 0.05 * run; ++i) tr.feed(g.lines[i]);
      REQUIRE(i < g.lines.size());
      tr.feed(g.lines[i]);
      auto snap = tr.snapshot();
      const double truth = g.full_run_end_t - g.times[i];
      INFO(to_string(f) << " seed " << seed << ": remaining " << snap.remaining_s << " truth " << truth);
      CHECK(snap.format == (f == LogFormat::Learned ? LogFormat::Learned : f));
      CHECK(std::abs(snap.remaining_s - truth) <= 0.10 * truth);
      CHECK(snap.fraction == doctest::Approx(0.05).epsilon(0.3));
    }
  }
}

TEST_CASE("a hang is flagged within 3x the usual line gap") {
  LogSpec s;
  s.format = LogFormat::Megatron;
  s.failure = FailureCategory::NcclTimeout;
  s.total_steps = 3000;
  s.steps_per_s = 2;
  s.log_every = 10;  // usual gap 5 s
  GeneratedLog g = generate_log(s);
  MetricTracker tr;
  const size_t fail = static_cast<size_t>(g.failure_line);
  for (size_t i = 0; i < fail; ++i) tr.feed(g.lines[i]);
  CHECK_FALSE(tr.snapshot().stalled);
  const double last = tr.snapshot().last_progress_t;
  const double usual = tr.usual_gap();
  CHECK(usual == doctest::Approx(5.0).epsilon(0.2));
  double flagged = -1;
  for (double t = last; t < last + 100; t += 0.5)
    if (tr.tick(t)) {
      flagged = t;
      break;
    }
  REQUIRE(flagged > 0);
  CHECK(flagged - last <= 3 * usual);
  CHECK(flagged - last > 1.5 * usual);  // not a hair trigger on ordinary jitter
  CHECK(tr.snapshot().stalled);
  REQUIRE(tr.stalls().size() == 1);
  CHECK(tr.stalls()[0].last_progress_t == last);
  // Progress resumes: the stall clears.
  tr.feed("iteration 999999/ 3000 | elapsed time per iteration (ms): 500.0 |", flagged + 1);
  CHECK_FALSE(tr.snapshot().stalled);
}

TEST_CASE("no stall is flagged on a healthy run, and corpus-wide stall detection holds") {
  auto corpus = generate_corpus(1, 2000, 5);
  TrackerOptions o;
  o.keep_series = false;
  TrackerReport r = evaluate_tracker(corpus, o);
  CHECK(r.stalls_expected == static_cast<int>(generated_formats().size()));
  CHECK(r.stalls_flagged == r.stalls_expected);
  CHECK(r.max_stall_delay_gaps <= 3.0);
  for (const auto& c : corpus) {
    if (c.spec.failure != FailureCategory::None) continue;
    MetricTracker tr;
    for (const auto& l : c.log.lines) tr.feed(l);
    INFO(c.name);
    CHECK(tr.stalls().empty());
    CHECK(tr.snapshot().fraction == doctest::Approx(1.0));
  }
}

TEST_CASE("an unknown format is learned from its first lines") {
  MetricTracker tr;
  for (int i = 1; i <= 300; ++i)
    tr.feed("2024-05-01T10:00:" + std::to_string(10 + i / 10) + "." + std::to_string(i % 10) +
            "00Z <worker-3> finished chunk " + std::to_string(i * 4) + " of 1200 ; loss " + std::to_string(1.0 / i));
  REQUIRE(tr.learned());
  auto s = tr.snapshot();
  CHECK(s.format == LogFormat::Learned);
  CHECK(s.done == 1200);
  CHECK(s.total == 1200);
  CHECK(s.progress_lines == 300);  // the lines before learning were replayed
}

TEST_CASE("follow a growing file until it ends, with a bounded poll") {
  test::TempDir dir("follow");
  const auto path = (dir / "job.log").string();
  LogSpec s;
  s.format = LogFormat::Tqdm;
  s.total_steps = 400;
  s.log_every = 10;
  GeneratedLog g = generate_log(s);
  std::thread writer([&] {
    std::ofstream out(path);
    for (size_t i = 0; i < g.lines.size(); ++i) {
      out << g.lines[i] << '\n';
      if (i % 10 == 0) {
        out.flush();
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    }
  });
  MetricTracker tr;
  FollowOptions fo;
  fo.poll_interval_s = 0.01;
  fo.idle_timeout_s = 2;
  fo.max_s = 20;
  auto res = follow_file(path, tr, fo, nullptr);
  writer.join();
  CHECK(res.stop_reason == "finished");
  CHECK(tr.snapshot().done == 400);

  // A file that stops growing ends by the idle timeout; a missing file too.
  MetricTracker tr2;
  fo.idle_timeout_s = 0.2;
  auto t0 = std::chrono::steady_clock::now();
  auto res2 = follow_file((dir / "never.log").string(), tr2, fo, nullptr);
  CHECK(res2.stop_reason == "idle");
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < 5);
  // A stop line ends following at once.
  MetricTracker tr3;
  auto res3 = follow_file(path, tr3, fo, [](const std::string& l) { return l.find(" 50/400") == std::string::npos; });
  CHECK(res3.stop_reason == "stop_line");
  CHECK(tr3.snapshot().done == 50);
}
