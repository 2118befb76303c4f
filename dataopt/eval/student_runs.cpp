#include "dataopt/eval/student_runs.hpp"

#include <algorithm>
#include <chrono>

#include "core/util/random.hpp"
#include "dataopt/eval/probe.hpp"
#include "dataopt/math/tensor_ops.hpp"

namespace mlsys::dataopt {

ProbePoint probe_features(DeviceContext& ctx, const Tensor& pool_features, const Tensor& test_features,
                          const ProbeData& data, int epoch) {
  std::vector<float> mean, stdev;
  column_stats(pool_features, mean, stdev);
  ProbePoint p;
  p.epoch = epoch;
  std::vector<int32_t> few_labels;
  for (int64_t r : data.few_rows) few_labels.push_back(data.pool_labels[static_cast<size_t>(r)]);
  p.few = linear_probe(ctx, select_rows(ctx, pool_features, data.few_rows), few_labels, test_features, data.test_labels,
                       data.classes, mean, stdev)
              .accuracy;
  p.all = linear_probe(ctx, pool_features, data.pool_labels, test_features, data.test_labels, data.classes, mean, stdev)
              .accuracy;
  return p;
}

Tensor standardized(DeviceContext& ctx, const Tensor& targets) {
  Tensor t = copy_on(ctx, targets);
  std::vector<float> mean, stdev;
  column_stats(t, mean, stdev);
  standardize_columns(t, mean, stdev);
  return t;
}

std::vector<ProbePoint> run_student(DeviceContext& ctx, const StudentRun& run, const Tensor& train_images,
                                    const ProbeData& data, double* train_seconds) {
  Network net = Network::build(ctx, run.arch, run.geometry, run.init_seed);
  std::vector<ProbePoint> out;
  double secs = 0;
  auto probe = [&](int epoch) {
    out.push_back(probe_features(ctx, net.features(data.pool_images), net.features(data.test_images), data, epoch));
    out.back().train_seconds = secs;
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
    net.add_head(run.targets->dim(1), derive_seed(run.init_seed, 7));
    fit_student(net, train_images, *run.targets, fo, hook, run.weights);
  } else if (run.objective == StudentObjective::contrastive) {
    fit_contrastive(net, train_images, fo, run.simclr, hook);
  } else {
    net.add_head(train_images.dim(1), derive_seed(run.init_seed, 7));
    fit_denoiser(net, train_images, fo, hook);
  }
  if (train_seconds) *train_seconds = secs;
  return out;
}

}  // namespace mlsys::dataopt
