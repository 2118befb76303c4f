#pragma once
// One row of the comparison for one seed: build a student, train it (or not) and probe its frozen
// features after the evaluation epochs.
#include <string>
#include <vector>

#include "dataopt/math/matrix.hpp"
#include "dataopt/train/fit.hpp"

namespace mlsys::dataopt {

struct ProbeData {
  Matrix pool_images, test_images;
  std::vector<int32_t> pool_labels, test_labels;
  int classes = 0;
  std::vector<int64_t> few_rows;  // the labeled subset (labels_per_class per class)
};

struct ProbePoint {
  int epoch = 0;
  double few = 0, all = 0;  // accuracy with few labels / all pool labels
};

// Probe of given features (pool rows first, then test rows).
ProbePoint probe_features(const Matrix& pool_features, const Matrix& test_features, const ProbeData& data, int epoch);

enum class StudentObjective { targets, denoise, none };

struct StudentRun {
  std::string arch;
  Geometry geometry{1, 28, 28};
  StudentObjective objective = StudentObjective::targets;
  const Matrix* targets = nullptr;  // standardized; objective == targets
  const std::vector<float>* weights = nullptr;  // per image loss weight (objective == targets), or none
  FitOptions fit;
  std::vector<int64_t> eval_epochs;
  uint64_t init_seed = 1;
};

// Returns one point per eval epoch (objective none: the untrained network at each epoch).
std::vector<ProbePoint> run_student(const StudentRun& run, const Matrix& train_images, const ProbeData& data,
                                    double* train_seconds = nullptr);

// Per-dimension standardization of targets over all rows (step 6).
Matrix standardized(const Matrix& targets);

}  // namespace mlsys::dataopt
