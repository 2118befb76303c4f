#pragma once
// Synthetic job streams for the demo and tests: commands of several frameworks/models/batch sizes,
// users, Poisson arrivals, step counts, and durations from a per-configuration throughput with noise.
#include <cstdint>
#include <vector>

#include "sched/schedmate/advisor/advisor.hpp"

namespace mlsys::schedmate {

struct JobGenSpec {
  int jobs = 300;
  int users = 12;
  double mean_interarrival_s = 600;
  double throughput_noise = 0.05;  // per-job multiplicative noise on steps/s
  uint64_t seed = 1;
};

std::vector<AdvisedJob> generate_jobs(const JobGenSpec& spec);

}  // namespace mlsys::schedmate
