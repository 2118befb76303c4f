#pragma once
// Scheduling Advisor: predicts a job's throughput and duration from the most similar finished jobs
// (structured key + character n-gram TF-IDF cosine, k nearest), with an uncertainty, falling back
// to the user's and then everyone's history when nothing similar has finished yet.
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/config/schema.hpp"
#include "core/util/json.hpp"
#include "sched/schedmate/advisor/facts.hpp"
#include "sched/schedmate/advisor/system_effects.hpp"
#include "sched/schedmate/advisor/tfidf.hpp"

namespace mlsys::schedmate {

struct AdvisorOptions {
  int k = 5;                    // neighbours used
  double min_similarity = 0.55; // below this a past job is not "similar"
  double key_weight = 0.5;      // similarity = key_weight * structured + (1 - key_weight) * cosine
  int ngram = 3;
  int min_user_jobs = 3;        // user statistics need this many finished jobs
  double prior_duration_s = 3600;
  // Transfer across platforms and scales (jobs without step counts): system_effects.hpp.
  SystemEffectsOptions transfer;
};

// The advisor's config keys (schedmate.k, schedmate.min_similarity), declared once; the others
// are the method's constants, not settings.
const config::Section<AdvisorOptions>& advisor_section();

struct AdvisedJob {  // one job as the advisor sees it
  std::string id, user, name, vc;
  JobText text;
  JobFacts facts;
  double submit_time = 0;
  double duration = NAN;  // measured (history only)
};

struct Prediction {
  std::string job_id;
  double duration_s = NAN;
  double uncertainty_s = NAN;       // one standard deviation
  double steps_per_s = NAN;         // predicted throughput, when steps are known
  std::string source;               // knn_exact | transfer | knn | user | global | prior
  std::vector<std::string> neighbors;  // ids of a few representative similar jobs
  std::vector<std::string> evidence;   // transfer: what the estimate rests on (SystemEffects::Estimate)
  double similarity = 0;            // best neighbour's similarity
  JobFacts facts;
  Json to_json() const;
};

class Advisor {
 public:
  explicit Advisor(AdvisorOptions opt = {});
  void add_history(const AdvisedJob& job);  // a finished job
  Prediction predict(const AdvisedJob& job) const;
  size_t history_size() const { return history_count_; }

 private:
  struct Prototype {  // past jobs with the same key and text
    JobFacts facts;
    NgramIndex::Counts grams;
    std::vector<double> log_rate;  // log steps/s per finished job (when steps known)
    std::vector<double> log_duration;
    std::vector<std::string> ids;
  };
  double key_similarity(const JobFacts& a, const JobFacts& b) const;

  // The same workload (model, data set, task) on another platform or scale: cold starts.
  static std::string workload_of(const JobFacts& f);
  static PlatformFacts platform_of(const AdvisedJob& job);
  bool transfer(const AdvisedJob& job, Prediction& pr) const;

  AdvisorOptions opt_;
  NgramIndex index_;
  std::map<std::string, Prototype> protos_;
  std::map<std::string, std::vector<double>> user_log_durations_;
  std::vector<double> all_log_durations_;
  size_t history_count_ = 0;
  SystemEffects effects_;
};

// Runs the online protocol over jobs in submit order: a job's history is every job whose
// submit + duration (its earliest possible finish) is at or before its submit time. Beside
// SchedMate, the baselines under the same protocol: the workload library's Helios-style history
// estimator (sched/workload/history_estimator.hpp) always; on request its GBDT estimator
// (gbdt_estimator.hpp, Helios QSSF style) and "the same job's previous run" (the latest finished
// job with the same user and name, else the Helios-style estimate).
struct OnlineOptions {
  bool gbdt = false;
  bool previous = false;
  uint64_t seed = 1;
  // Jobs that never enter any estimator's history but are still predicted (unseen-model protocol).
  std::function<bool(const AdvisedJob&)> held_out;
};
struct OnlineResult {
  std::vector<Prediction> schedmate;
  std::vector<double> helios;    // per job, same order
  std::vector<double> gbdt;      // empty unless requested
  std::vector<double> previous;  // empty unless requested
};
std::vector<double> helios_baseline(const std::vector<AdvisedJob>& jobs, const AdvisorOptions& opt);
OnlineResult predict_online(const std::vector<AdvisedJob>& jobs_in_submit_order, const AdvisorOptions& opt,
                            const OnlineOptions& online = {});

// The same, separately per virtual cluster (VCs are independent clusters with their own clocks);
// results are in the input order.
OnlineResult predict_online_by_vc(const std::vector<AdvisedJob>& jobs_in_submit_order, const AdvisorOptions& opt,
                                  const OnlineOptions& online = {});

// Share of jobs whose prediction is within +-tol of the truth.
double within(const std::vector<double>& predicted, const std::vector<double>& truth, double tol);
// Median of |predicted - truth| / truth (NaN for no jobs).
double median_ape(const std::vector<double>& predicted, const std::vector<double>& truth);

}  // namespace mlsys::schedmate
