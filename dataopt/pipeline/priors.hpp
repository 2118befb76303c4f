#pragma once
// Obtaining each participant's prior: trained priors are cached in plan.priors_dir as
// <name>.prior with a <name>.key file holding the spec fingerprint, the kind's settings, the seed,
// the prior file format and the size and time stamp of every file the prior learns from, and are
// retrained when any of them changes.
#include "dataopt/pipeline/plan.hpp"

namespace mlsys::dataopt {

struct PriorStatus {
  std::string name;
  bool trained = false;  // false: reloaded from the cache
  double seconds = 0;
  std::string kind, about;  // as in the prior file
  int64_t dim = 0;          // embedding dimension
};

// Builds (or reloads) prior k on ctx.device. Cacheable priors are saved after training.
Prior obtain_prior(const Plan& plan, int k, const PriorBuildContext& ctx, PriorStatus* status = nullptr);
// The plan's part of every prior's context (pool rows, digits file, simclr settings): also what
// the run record uses to name the files a prior reads.
PriorBuildContext plan_context(const Plan& plan);
// What prior k is built from: its seed derive_seed(plan.seed, 1000 + k), the data, the device, the
// target image geometry g.
PriorBuildContext build_context(DeviceContext& device, const Plan& plan, const DataSource& data, int k, Geometry g);

}  // namespace mlsys::dataopt
