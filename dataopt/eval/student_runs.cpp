#include "dataopt/eval/student_runs.hpp"

#include <algorithm>
#include <chrono>

#include "dataopt/eval/probe.hpp"

namespace mlsys::dataopt {

ProbePoint probe_features(const Matrix& pool_features, const Matrix& test_features, const ProbeData& data, int epoch) {
  std::vector<float> mean, stdev;
  column_stats(pool_features, mean, stdev);
  ProbePoint p;
  p.epoch = epoch;
  std::vector<int32_t> few_labels;
  for (int64_t r : data.few_rows) few_labels.push_back(data.pool_labels[static_cast<size_t>(r)]);
  p.few = linear_probe(pool_features.select_rows(data.few_rows), few_labels, test_features, data.test_labels,
                       data.classes, mean, stdev).accuracy;
  p.all = linear_probe(pool_features, data.pool_labels, test_features, data.test_labels, data.classes, mean, stdev).accuracy;
  return p;
}

Matrix standardized(const Matrix& targets) {
  Matrix t = targets;
  std::vector<float> mean, stdev;
  column_stats(t, mean, stdev);
  standardize_columns(t, mean, stdev);
  return t;
}

std::vector<ProbePoint> run_student(const StudentRun& run, const Matrix& train_images, const ProbeData& data,
                                    double* train_seconds) {
  Net net = Net::build(run.arch, run.geometry, run.init_seed);
  std::vector<ProbePoint> out;
  double secs = 0;
  auto probe = [&](int epoch) {
    out.push_back(probe_features(net.features(data.pool_images), net.features(data.test_images), data, epoch));
  };
  if (run.objective == StudentObjective::none) {
    probe(0);
    std::vector<ProbePoint> same;
    for (int64_t e : run.eval_epochs) {
      ProbePoint p = out.front();
      p.epoch = static_cast<int>(e);
      same.push_back(p);
    }
    if (train_seconds) *train_seconds = 0;
    return same;
  }
  const int64_t last = run.eval_epochs.empty() ? 0 : *std::max_element(run.eval_epochs.begin(), run.eval_epochs.end());
  FitOptions fo = run.fit;
  fo.epochs = static_cast<int>(last);
  auto start = std::chrono::steady_clock::now();
  const EpochHook hook = [&](int epoch, double) {
    secs += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (std::find(run.eval_epochs.begin(), run.eval_epochs.end(), epoch) != run.eval_epochs.end()) probe(epoch);
    start = std::chrono::steady_clock::now();
    return true;
  };
  if (run.objective == StudentObjective::targets) {
    net.add_head(run.targets->cols, run.init_seed + 7);
    fit_student(net, train_images, *run.targets, fo, hook, run.weights);
  } else {
    net.add_head(train_images.cols, run.init_seed + 7);
    fit_denoiser(net, train_images, fo, hook);
  }
  if (train_seconds) *train_seconds = secs;
  return out;
}

}  // namespace mlsys::dataopt
