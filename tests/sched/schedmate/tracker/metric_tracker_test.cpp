#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "sched/schedmate/eval/log_corpus.hpp"
#include "sched/schedmate/eval/metrics.hpp"
#include "sched/schedmate/generator/log_generator.hpp"
#include "sched/schedmate/tracker/follow.hpp"
#include "sched/schedmate/tracker/metric_tracker.hpp"
#include "core/util/strings.hpp"
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
  CHECK(r.stalls_expected == 2 * static_cast<int>(generated_formats().size()));  // NCCL timeouts and hangs
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

TEST_CASE("a tqdm bar's own n/total and remaining time are what the tracker reports") {
  MetricTracker tr;
  tr.feed("  1%|          | 10/1752 [00:29<1:22:01,  2.83s/it]");
  auto s = tr.snapshot();
  CHECK(s.fraction == doctest::Approx(10.0 / 1752));
  CHECK(s.remaining_s == doctest::Approx(4921));
  CHECK(s.scope == "run");
  tr.feed(" 50%|#####     | 876/1752 [40:00<20:00,  2.74s/it]");  // the bar's smoothed rate, not ours
  s = tr.snapshot();
  CHECK(s.fraction == doctest::Approx(0.5));
  CHECK(s.remaining_s == doctest::Approx(1200));
}

TEST_CASE("Lightning without a known epoch count: the current epoch's bar") {
  MetricTracker tr;
  tr.feed("Epoch 0:  19%|#9        | 1610/8573 [11:25:45<50:22:32, 26.05s/it, loss=0.5, v_num=1]");
  auto s = tr.snapshot();
  CHECK(s.scope == "epoch");
  CHECK(s.fraction == doctest::Approx(1610.0 / 8573));
  CHECK(s.remaining_s == doctest::Approx(50 * 3600 + 22 * 60 + 32));
  // With max_epochs known, the run's own fraction and remaining time.
  MetricTracker known;
  known.feed("Trainer(max_epochs=4)");
  known.feed("2024-05-01 10:00:00 Epoch 0:  50%|#####     | 50/100 [00:50<00:50,  1.00it/s]");
  known.feed("2024-05-01 10:01:40 Epoch 1:  50%|#####     | 50/100 [00:50<00:50,  1.00it/s]");
  s = known.snapshot();
  CHECK(s.scope == "run");
  CHECK(s.fraction == doctest::Approx(1.5 / 4));
  CHECK(s.remaining_s == doctest::Approx(250));
}

TEST_CASE("MLPerf MLLOG lines: epochs, quality against the target, run state") {
  MetricTracker tr;
  auto ev = [](double t_ms, const std::string& key, const std::string& value, const std::string& meta) {
    return ":::MLLOG {\"namespace\": \"\", \"time_ms\": " + std::to_string(static_cast<long long>(t_ms)) +
           ", \"key\": \"" + key + "\", \"value\": " + value + ", \"metadata\": {" + meta + "}}";
  };
  tr.feed(ev(1000000, "submission_benchmark", "\"resnet\"", ""));
  tr.feed(ev(1000000, "run_start", "null", ""));
  for (int e = 1; e <= 4; ++e) {
    tr.feed(ev(1000000 + e * 60000.0, "epoch_stop", "null", "\"epoch_num\": " + std::to_string(e)));
    tr.feed("some framework output in between");
  }
  tr.feed(ev(1000000 + 4 * 60000.0 + 5000, "eval_accuracy", "0.7412", "\"epoch_num\": 4"));
  auto s = tr.snapshot();
  CHECK(s.format == LogFormat::Mlperf);
  CHECK(s.done == 4);
  CHECK(s.rate == doctest::Approx(1.0 / 60));
  CHECK(s.quality == doctest::Approx(0.7412));
  CHECK(s.quality_target == doctest::Approx(0.759));
  CHECK(s.run_status.empty());
  CHECK(s.run_start_t == doctest::Approx(1000));
  tr.feed(ev(1000000 + 4 * 60000.0 + 6000, "run_stop", "null", "\"status\": \"aborted\""));
  s = tr.snapshot();
  CHECK(s.run_status == "aborted");
  CHECK(s.run_stop_t == doctest::Approx(1246));
}

TEST_CASE("shared: every tqdm line of the labelled logs: fraction and remaining time as the line states") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  int checked = 0;
  for (const auto& e : std::filesystem::directory_iterator(data / "jobs/logs")) {
    if (e.path().extension() != ".log") continue;
    MetricTracker tr;
    std::ifstream in(e.path());
    std::string line;
    while (std::getline(in, line)) {
      tr.feed(line);
      // An independent reading of "n/total [elapsed<remaining," on the line.
      const size_t lb = line.find(" [");
      const size_t lt = line.find('<', lb == std::string::npos ? 0 : lb);
      const size_t comma = line.find(',', lt == std::string::npos ? 0 : lt);
      if (lb == std::string::npos || lt == std::string::npos || comma == std::string::npos) continue;
      size_t sl = line.rfind('/', lb);
      if (sl == std::string::npos) continue;
      size_t a0 = line.rfind(' ', sl);
      const double n = std::stod(line.substr(a0 + 1, sl - a0 - 1)), total = std::stod(line.substr(sl + 1, lb - sl - 1));
      std::string rem = line.substr(lt + 1, comma - lt - 1);
      double secs = 0;
      for (const auto& part : split(rem, ':')) secs = secs * 60 + std::stod(part);
      auto s = tr.snapshot();
      INFO(e.path().filename().string() << ": " << line);
      CHECK(std::abs(s.fraction - n / total) <= 0.01 * (n / total));
      CHECK(std::abs(s.remaining_s - secs) <= 0.10 * secs);
      ++checked;
    }
  }
  CHECK(checked >= 5);
}
