#pragma once
// Duration-prediction accuracy under the online protocol: SchedMate beside the Helios-style
// estimator, the GBDT estimator (Helios QSSF style) and the same job's previous run, reported per
// group (VC, or the id's first component: the MLPerf round), and the unseen-model protocol (one job
// type at a time left out of every history, its jobs predicted).
#include <functional>
#include <string>
#include <vector>

#include "core/runtime/table.hpp"
#include "sched/schedmate/advisor/advisor.hpp"

namespace mlsys::schedmate {

// The estimators in report order; `predictions(result, name)` gives one's per-job values.
const std::vector<std::string>& duration_estimators();  // schedmate, helios, gbdt, previous
std::vector<double> predictions(const OnlineResult& r, const std::string& estimator);

// "vc": the job's VC ("all" when empty); "id_prefix": the id up to its first '/'.
std::function<std::string(const AdvisedJob&)> group_of(const std::string& group_by);
// A job type: its name without a parenthesized suffix ("ResNet-18 (batch size 32)" -> "ResNet-18").
std::string job_type(const AdvisedJob& j);

// Per job: true for a cold start, a job with no finished job of the same VC, user and name in its
// history (none whose submit + duration is at or before its submit: the online protocol's history).
// On the MLPerf runs (user = submitter, name = <system>/<benchmark>) it is a system's first run of
// a benchmark, the case where a scheduler has nothing of the job's own to go by. The other jobs are
// warm: an earlier run of the same job had finished.
std::vector<bool> cold_starts(const std::vector<AdvisedJob>& jobs);

// Rows: each group, then `<group> cold` and `<group> warm` (cold_starts), then ALL, ALL cold and
// ALL warm. Columns: group, jobs, then <estimator>_within_10pct, <estimator>_within_50pct,
// <estimator>_median_ape for the estimators present in `r`. With `reported` non-empty only those
// groups are scored (rows and ALL): the other jobs were still predicted and were still in the
// history (one history across all groups), and still decide which reported jobs are cold. This is
// how a held-out part (MLPerf v0.7) stays unseen while a method is designed on the rest.
Table accuracy_table(const std::vector<AdvisedJob>& jobs, const OnlineResult& r,
                     const std::function<std::string(const AdvisedJob&)>& group,
                     const std::vector<std::string>& reported = {});

// The indices of the jobs in the `reported` groups (every job when it is empty), in input order.
// Throws a ConfigError naming `key` for a reported group no job belongs to.
std::vector<size_t> reported_jobs(const std::vector<AdvisedJob>& jobs,
                                  const std::function<std::string(const AdvisedJob&)>& group,
                                  const std::vector<std::string>& reported, const std::string& key);
// Those jobs' predictions, every estimator, in the order of `idx`.
OnlineResult select(const OnlineResult& r, const std::vector<size_t>& idx);

// Unseen-model protocol: for each job type, the online protocol (per VC) with that type's jobs in
// no history; rows per type (its jobs only) and ALL.
Table unseen_type_table(const std::vector<AdvisedJob>& jobs, const AdvisorOptions& opt, const OnlineOptions& online);

}  // namespace mlsys::schedmate
