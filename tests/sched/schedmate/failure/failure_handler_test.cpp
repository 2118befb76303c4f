#include <doctest/doctest.h>

#include <filesystem>

#include "core/util/fs.hpp"
#include "core/util/strings.hpp"
#include "sched/schedmate/analyzer/analyzer.hpp"
#include "sched/schedmate/eval/log_corpus.hpp"
#include "sched/schedmate/eval/metrics.hpp"
#include "sched/schedmate/failure/failure_handler.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
using namespace mlsys::schedmate;

namespace {
// labels.csv names categories in the curator's words; map them onto ours.
FailureCategory expected_for(const std::string& label) {
  if (label == "infra/nccl_timeout") return FailureCategory::NcclTimeout;
  if (label == "user/gpu_oom") return FailureCategory::GpuOom;
  if (label == "infra/gpu_hardware_ecc") return FailureCategory::GpuHardware;
  if (label == "infra_or_user/host_oom_sigkill") return FailureCategory::HostOom;
  if (label == "progress/no_failure") return FailureCategory::None;
  FAIL("unmapped label " << label);
  return FailureCategory::Unknown;
}
}  // namespace

TEST_CASE("every labelled real log is classified correctly with its evidence line") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  const auto dir = data / "jobs" / "logs";
  auto rows = split_lines(read_file(dir / "labels.csv"));
  int checked = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    if (rows[i].empty()) continue;
    auto f = split(rows[i], ',');
    const std::string file = f[0], label = f[1];
    // Drop the curator's "# SOURCE/# LABEL" annotations: they are not part of the job's log.
    std::vector<std::string> lines;
    for (auto& l : split_lines(read_file(dir / file)))
      if (l.rfind("#", 0) != 0) lines.push_back(l);
    Diagnosis d = diagnose_lines(lines);
    INFO(file << ": " << to_string(d.category) << " evidence: " << d.evidence);
    CHECK(d.category == expected_for(label));
    if (d.category != FailureCategory::None) {
      REQUIRE(d.evidence_line > 0);
      CHECK(d.evidence == std::string(trim(lines[static_cast<size_t>(d.evidence_line - 1)])).substr(0, 300));
    }
    CHECK_FALSE((is_user_error(d.category) && (d.action == FailureAction::Resubmit || d.action == FailureAction::ResubmitExcludeNode)));
    ++checked;
  }
  CHECK(checked == 5);
}

TEST_CASE("evidence lines point at the decisive line") {
  Diagnosis d = diagnose_lines({"step 10/100", "Traceback (most recent call last):", "  File \"x.py\", line 3",
                                "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2 GiB",
                                "[E ProcessGroupNCCL.cpp:1] Watchdog caught collective operation timeout"});
  // The OOM is the root cause; the NCCL timeout on the other ranks is its echo.
  CHECK(d.category == FailureCategory::GpuOom);
  CHECK(d.evidence_line == 4);
  CHECK(d.action == FailureAction::ResubmitMoreMemory);
}

TEST_CASE("actions follow the issue's policy and never retry a user error blindly") {
  for (auto c : all_categories()) {
    FailureAction a = action_for(c);
    if (is_user_error(c)) CHECK((a == FailureAction::ResubmitMoreMemory || a == FailureAction::DoNotRetry));
    if (is_infra_error(c)) CHECK(a != FailureAction::DoNotRetry);
  }
  CHECK(action_for(FailureCategory::GpuHardware) == FailureAction::ResubmitExcludeNode);
  CHECK(action_for(FailureCategory::NcclTimeout) == FailureAction::Resubmit);
  CHECK(action_for(FailureCategory::ScriptError) == FailureAction::DoNotRetry);
  CHECK(action_for(FailureCategory::BadConfig) == FailureAction::DoNotRetry);
  CHECK(action_for(FailureCategory::Unknown) == FailureAction::DoNotRetry);
  CHECK(std::string(to_string(FailureAction::ResubmitExcludeNode)) == "resubmit_exclude_node");
  CHECK(parse_category("user/gpu_oom") == FailureCategory::GpuOom);
  CHECK_THROWS_AS(parse_category("oom"), ConfigError);
}

TEST_CASE("clean, empty and garbage logs") {
  CHECK(diagnose_lines({}).category == FailureCategory::None);
  CHECK(diagnose_text("epoch 1/3\nepoch 2/3\nepoch 3/3\n").category == FailureCategory::None);
  CHECK(diagnose_text("\x01\x02\xff\n\n\n").category == FailureCategory::None);
  // An unexplained crash before any progress is unknown and never retried blindly.
  Diagnosis u = diagnose_text("Segmentation fault (core dumped)\n");
  CHECK(u.category == FailureCategory::Unknown);
  CHECK(u.action == FailureAction::DoNotRetry);
}

TEST_CASE("run failures: crash after progress, hang, not converged -> resubmit from the last checkpoint") {
  // A truncated traceback after progress: the run had got going, so resubmit it.
  RunEvidence progressed{true, false};
  Diagnosis c = diagnose_lines({"step 1/9", "step 2/9", "Traceback (most recent call last):", "  File \"t.py\", line 3"},
                               progressed);
  CHECK(c.category == FailureCategory::CrashAfterProgress);
  CHECK(c.evidence_line == 3);
  CHECK(c.action == FailureAction::Resubmit);
  // Progress stopped without a word: a hang.
  Diagnosis h = diagnose_lines({"step 1/9", "step 2/9"}, RunEvidence{true, true});
  CHECK(h.category == FailureCategory::Hang);
  CHECK(h.action == FailureAction::Resubmit);
  // A named cause still wins over the run-level categories.
  CHECK(diagnose_lines({"step 1/9", "RuntimeError: CUDA out of memory"}, RunEvidence{true, true}).category ==
        FailureCategory::GpuOom);
  CHECK(diagnose_lines({"step 4/9", "Loss is NaN at step 400, stopping training"}, progressed).category ==
        FailureCategory::NotConverged);
  // MLPerf: an aborted run_stop is a run that did not reach its target; a successful one is a success.
  const std::string stop = ":::MLLOG {\"time_ms\": 1, \"key\": \"run_stop\", \"value\": null, \"metadata\": {\"status\": ";
  Diagnosis m = diagnose_lines({"epoch 1", stop + "\"aborted\"}}"}, progressed);
  CHECK(m.category == FailureCategory::NotConverged);
  CHECK(m.evidence_line == 2);
  CHECK(diagnose_lines({"warning: FileNotFoundError: optional cache missing", stop + "\"success\"}}"}).category ==
        FailureCategory::None);
  // A run_stop without a status: the last evaluation against the target decides, and nothing else
  // about the run_stop line does.
  const std::string bare = ":::MLLOG {\"time_ms\": 1, \"key\": \"run_stop\", \"value\": null, \"metadata\": {}}";
  const std::string eval = ":::MLLOG {\"time_ms\": 1, \"key\": \"eval_accuracy\", \"value\": 0.5, \"metadata\": {}}";
  RunEvidence below{true, false, 0.5, 0.759}, reached{true, false, 0.76, 0.759};
  Diagnosis b = diagnose_lines({"epoch 1", eval, bare}, below);
  CHECK(b.category == FailureCategory::NotConverged);
  CHECK(b.evidence_line == 2);
  CHECK(diagnose_lines({"epoch 1", eval, bare}, reached).category == FailureCategory::None);
  CHECK(diagnose_lines({"epoch 1", bare}, progressed).category == FailureCategory::None);
  for (auto cat : {FailureCategory::CrashAfterProgress, FailureCategory::Hang, FailureCategory::NotConverged}) {
    CHECK(is_run_failure(cat));
    CHECK_FALSE(is_user_error(cat));
  }
}

TEST_CASE("generated failures: macro-F1 >= 0.95 and zero retries for user errors") {
  auto corpus = generate_corpus(2, 1500, 11);
  auto analyzer = analyzer_registry().create("embedded", AnalyzerOptions{});
  ClassificationReport r = evaluate_classification(corpus, *analyzer);
  for (const auto& m : r.mistakes) MESSAGE(m);
  MESSAGE("macro-F1 " << r.macro_f1 << " over " << corpus.size() << " logs");
  CHECK(r.macro_f1 >= 0.95);
  CHECK(r.user_error_retries == 0);
  CHECK(r.f1.size() == all_categories().size());
}
