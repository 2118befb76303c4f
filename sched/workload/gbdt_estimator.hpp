#pragma once
// A learned duration estimator in the manner of Helios' QSSF (Hu et al., SC'21): gradient-boosted
// trees over job metadata, here XGBoost's (Debian libxgboost-dev, C API), trained on log duration.
// Features: user, VC, name, the name's first and last words, GPU type (as category codes), GPU
// count, hour of the day of the submit time, and the history's mean log duration and count for the
// same user+name, the same name and the same user as of the job's submit time. Online in trace time like the Helios-style estimator
// (history_estimator.hpp): a job's estimate comes from a model trained only on jobs that finished
// (submit + duration) at or before its submit time. The model is retrained whenever the history
// has grown by `retrain_growth` since the last fit (and at least one job); before `min_history`
// jobs have finished, the estimate is the history's mean (else `default_s`). Deterministic: one
// thread, fixed seed. Used by SchedMate's evaluation as a baseline and by `mlsys simulate` as the
// `gbdt` estimator.
#include <cstdint>
#include <string>
#include <vector>

#include "sched/workload/history_estimator.hpp"
#include "sched/workload/job.hpp"

namespace mlsys::workload {

struct GbdtOptions {
  int trees = 100;
  int max_depth = 6;
  double learning_rate = 0.1;
  double retrain_growth = 0.05;  // retrain after the history grew by this fraction
  int min_history = 10;          // finished jobs before the first model
  double default_s = 3600;       // when nothing has finished yet
  uint64_t seed = 1;
};

// Reads user, vc, name, gpu_type, num_gpus, submit_time and duration; `jobs` need not be sorted.
// sources counts "gbdt", "history mean" and "default".
DurationEstimates gbdt_estimates(const std::vector<JobSpec>& jobs, const GbdtOptions& opt);

}  // namespace mlsys::workload
