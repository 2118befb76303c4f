#pragma once
// Helios compatibility mode: the semantics of the Helios artifact's simulator (Hu et al., SC'21,
// S-Lab-System-Group/HeliosArtifact "QSSF Service"), reproduced exactly so results can be compared
// with numbers published from it: 1-second ticks, each VC simulated on its own nodes, strict
// head-of-line blocking for FIFO/SJF/QSSF, its consolidate placer, SRTF's quota walk with
// checkpoint penalties and its accounting. docs/simulate.md describes the rules.
//
// Ticks where nothing can change are skipped (the result is identical: a tick in which no job is
// released, arrives, starts, is preempted or gets a priority leaves the next tick's outcome
// unchanged until the next arrival or end), so cost follows events, not simulated seconds.
// Inputs on which the original loops forever (a job larger than its VC, a duration that is not a
// positive whole number of seconds) raise an error instead.
#include <cstdint>
#include <string>
#include <vector>

namespace mlsys::sim::helios {

struct Job {
  std::string user, vc, name, state;
  int gpus = 0;
  int64_t submit = 0;    // whole seconds
  int64_t duration = 0;  // whole seconds, >= 1
  int64_t priority_p = 0;  // QSSF per-job priority input p(jobname) (has_priority_p says if set)
  bool has_priority_p = false;
};

struct JobResult {
  int64_t start = -1, end = -1, queue = 0, jct = 0;
  int preemptions = 0;
  int64_t priority = -1;  // QSSF priority (p x gpus) once assigned
};

struct VcResult {
  std::string vc, policy;
  int64_t jobs = 0, sum_jct = 0, sum_queue = 0, makespan = 0, preemptions = 0;
  int64_t ticks_processed = 0;  // simulated seconds actually evaluated
  std::vector<int> job_index;    // indices into the input jobs, input order
  std::vector<JobResult> results;  // parallel to job_index
};

// Policies the compatibility mode knows: fifo, sjf, srtf, qssf.
const std::vector<std::string>& policies();

// Simulates the jobs of one VC (all jobs must carry that VC) on `nodes` nodes of
// `gpus_per_node` GPUs. Throws mlsys::InputError for inputs the original cannot finish.
VcResult simulate_vc(const std::vector<Job>& jobs, const std::vector<int>& indices, const std::string& vc,
                     int nodes, int gpus_per_node, const std::string& policy);

}  // namespace mlsys::sim::helios
