#pragma once
// Turns the resolved `coopt:` section into the objects every mode uses.
#include <filesystem>
#include <memory>

#include "core/runtime/run_context.hpp"
#include "core/tensor/device_options.hpp"
#include "dataopt/data/source.hpp"
#include "dataopt/eval/student_runs.hpp"
#include "dataopt/options.hpp"
#include "dataopt/pipeline/participants.hpp"
#include "dataopt/pipeline/plan.hpp"
#include "dataopt/pipeline/priors.hpp"

namespace mlsys::dataopt {

struct Setup {
  CooptOptions opt;  // as configured
  DeviceOptions device;
  Plan plan;  // opt.plan with the priors parsed, the seed set and "" folders resolved under the run folder
  std::unique_ptr<DataSource> data;
  // A context for one unit of work (the priors, a rank, a student), on the configured device, with
  // its own pool named `name` (summary.json lists each pool's statistics under that name).
  std::unique_ptr<DeviceContext> context(const std::string& name) const;
};

Setup make_setup(RunContext& ctx);

// Sets one BLAS/OpenMP thread for its lifetime and restores the previous count after: work that
// the caller splits over threads or ranks, where one thread each is faster and keeps results
// independent of the thread count. OpenMP's count is per thread: a worker thread calls
// set_thread_count(1) itself.
class OneMathThread {
 public:
  OneMathThread();
  ~OneMathThread();
  OneMathThread(const OneMathThread&) = delete;
  OneMathThread& operator=(const OneMathThread&) = delete;

 private:
  int saved_;
};

// Trains or reloads every prior on this process (the "public models" exist before the phase).
std::vector<PriorStatus> prepare_priors(const Setup& s);

// Runs the participant phase over the configured communicator (inproc threads or MPI ranks).
// Returns rank 0's report; `is_root` tells whether this process holds rank 0.
ParticipantReport participant_phase(RunContext& ctx, const Setup& s, bool* is_root);

// Pool labels, the images the probe is scored on (the test file, or the validation rows with
// eval.on: validation) and the few-label subset for `seed`.
ProbeData probe_data(const Setup& s, const Tensor& pool_images, uint64_t seed);

FitOptions student_fit(const CooptOptions& o, uint64_t seed);

}  // namespace mlsys::dataopt
