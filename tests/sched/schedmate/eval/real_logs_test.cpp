// Real-log evaluation: curator labels map to categories; annotations never reach the classifier;
// the tracker is checked against what each tqdm line states. Fixtures are written at test time.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "core/util/error.hpp"
#include "sched/schedmate/eval/real_logs.hpp"

using namespace mlsys::schedmate;
namespace fs = std::filesystem;

TEST_CASE("real logs: curator labels name categories by their short names") {
  CHECK(category_for_label("progress/no_failure") == FailureCategory::None);
  CHECK(to_string(category_for_label("infra/gpu_hardware_ecc")) == std::string("infra/gpu_hardware"));
  CHECK_THROWS_AS(category_for_label("nothing/like_this"), mlsys::InputError);
}

TEST_CASE("real logs: a tqdm log is tracked as it states and its label comment is not evidence") {
  const fs::path dir = fs::temp_directory_path() / "mlsys_real_logs_test";
  fs::remove_all(dir);
  fs::create_directories(dir);
  {
    std::ofstream log(dir / "run.log");
    log << "# LABEL: progress/no_failure  CUDA error: an illegal memory access was encountered\n";
    log << "Epoch 0:  10%|#         | 100/1000 [01:40<15:00,  1.00it/s, loss=2.1]\n";
    log << "Epoch 0:  20%|##        | 200/1000 [03:20<13:20,  1.00it/s, loss=1.9]\n";
    std::ofstream labels(dir / "labels.csv");
    labels << "file,label\nrun.log,progress/no_failure\n";
  }
  auto analyzer = analyzer_registry().create("embedded", AnalyzerOptions{});
  RealLogReport r = evaluate_labelled_logs(dir.string(), *analyzer, InputLimits{});
  CHECK(r.logs == 1);
  CHECK(r.correct == 1);  // the CUDA error in the comment is not read
  CHECK(r.tqdm_lines == 2);
  CHECK(r.max_fraction_error < 0.01);
  CHECK(r.max_remaining_error < 0.10);
  fs::remove_all(dir);
}


namespace {
std::string mllog(int t_ms, const std::string& key, const std::string& value, const std::string& metadata = "{}") {
  return ":::MLLOG {\"namespace\": \"\", \"time_ms\": " + std::to_string(t_ms) + ", \"key\": \"" + key +
         "\", \"value\": " + value + ", \"metadata\": " + metadata + "}";
}
}  // namespace

TEST_CASE("real logs: the MLPerf score never reads a log's own run_stop status") {
  const std::string stop = mllog(9000, "run_stop", "null", "{\"status\": \"aborted\", \"lineno\": 990}");
  // The status goes; the event and its clock stay, and other lines are untouched.
  const auto hidden = hide_run_status({"0: epoch 1", "0: " + stop});
  REQUIRE(hidden.size() == 2);
  CHECK(hidden[0] == "0: epoch 1");
  CHECK(hidden[1].rfind("0: :::MLLOG ", 0) == 0);
  CHECK(hidden[1].find("aborted") == std::string::npos);
  CHECK(hidden[1].find("status") == std::string::npos);
  CHECK(hidden[1].find("run_stop") != std::string::npos);
  CHECK(hide_run_status({":::MLL 1558640803.690 run_stop: {\"value\": null, \"metadata\": {\"status\": \"abort\"}}"})[0].find(
            "abort") == std::string::npos);

  // Two aborted runs: result_0's only failure evidence is its run_stop status (its last evaluation
  // reached ResNet's target 0.759); result_1 stopped at 0.70, below the target.
  const fs::path dir = fs::temp_directory_path() / "mlsys_real_logs_mlperf_test";
  fs::remove_all(dir);
  const fs::path sys = dir / "Org" / "results" / "sys" / "resnet";
  fs::create_directories(sys);
  for (const auto& [file, quality] : std::vector<std::pair<std::string, std::string>>{{"result_0.txt", "0.7601"},
                                                                                     {"result_1.txt", "0.70"}}) {
    std::ofstream log(sys / file);
    log << mllog(0, "submission_benchmark", "\"resnet\"") << "\n"
        << mllog(1000, "run_start", "null") << "\n"
        << mllog(5000, "eval_accuracy", quality, "{\"epoch_num\": 1}") << "\n"
        << stop << "\n";
  }
  {
    std::ofstream runs(dir / "runs.csv");
    runs << "log_path,status\nOrg/results/sys/resnet/result_0.txt,aborted\nOrg/results/sys/resnet/result_1.txt,aborted\n";
  }
  auto analyzer = analyzer_registry().create("embedded", AnalyzerOptions{});
  MlperfLogReport r = evaluate_mlperf_logs(dir.string(), (dir / "runs.csv").string(), *analyzer, InputLimits{});
  CHECK(r.aborted == 2);
  CHECK(r.aborted_explained == 1);          // status hidden: only the run below its target
  CHECK(r.aborted_explained_visible == 2);  // as logged, the status alone decides
  REQUIRE(r.table.rows() == 2);
  CHECK(std::get<std::string>(r.table.row(0)[2]) == "none");
  CHECK(std::get<std::string>(r.table.row(0)[6]) == "run/not_converged");
  CHECK(std::get<std::string>(r.table.row(1)[2]) == "run/not_converged");
  CHECK(std::get<int64_t>(r.table.row(1)[4]) == 3);  // the evidence is the last evaluation
  fs::remove_all(dir);
}
