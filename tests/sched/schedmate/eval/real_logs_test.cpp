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

