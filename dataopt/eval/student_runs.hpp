#pragma once
// One row of the comparison for one seed: build a student, train it (or not) and probe its frozen
// features after the evaluation epochs.
#include <string>
#include <vector>

#include "dataopt/train/fit.hpp"

namespace mlsys::dataopt {

// Host tensors [rows, C*H*W]; read-only, shared by concurrent student runs.
struct ProbeData {
  Tensor pool_images, test_images;
  std::vector<int32_t> pool_labels, test_labels;
  int classes = 0;
  std::vector<int64_t> few_rows;  // the labeled subset (labels_per_class per class)
};

struct ProbePoint {
  int epoch = 0;
  double few = 0, all = 0;  // accuracy with few labels / all pool labels
  double train_seconds = 0;  // training time up to this epoch (probes not counted)
};

// Probe of given features (pool rows first, then test rows), on ctx.
ProbePoint probe_features(DeviceContext& ctx, const Tensor& pool_features, const Tensor& test_features,
                          const ProbeData& data, int epoch);

// What the student learns from: the optimized dataset's targets (CoOpt), reconstructing its own
// views (a denoising autoencoder), contrasting its views (SimCLR), or nothing (random init).
enum class StudentObjective { targets, denoise, contrastive, none };

struct StudentRun {
  std::string arch;
  Geometry geometry{1, 28, 28};
  StudentObjective objective = StudentObjective::targets;
  const Tensor* targets = nullptr;              // standardized; objective == targets
  const std::vector<float>* weights = nullptr;  // per image loss weight (objective == targets), or none
  FitOptions fit;
  SimclrOptions simclr;  // objective == contrastive
  std::vector<int64_t> eval_epochs;
  uint64_t init_seed = 1;
};

// Trains on ctx (the student's own context) and returns one point per eval epoch (objective none:
// the untrained network at each epoch).
std::vector<ProbePoint> run_student(DeviceContext& ctx, const StudentRun& run, const Tensor& train_images,
                                    const ProbeData& data, double* train_seconds = nullptr);

// Per-dimension standardization of targets over all rows (step 6), as a new tensor on ctx.
Tensor standardized(DeviceContext& ctx, const Tensor& targets);

}  // namespace mlsys::dataopt
