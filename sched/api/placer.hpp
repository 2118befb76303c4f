#pragma once
// Placement plug-in interface: given a pending job and the free resources, choose its GPUs.
// Each placer lives in its own file under sched/placement/ and registers itself.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/registry/registry.hpp"
#include "sched/api/allocation.hpp"
#include "sched/api/cluster_state.hpp"
#include "sched/api/job_info.hpp"

namespace mlsys::sched {

// The mix of demands the cluster expects (for fragmentation-aware placement): each class is
// (GPUs, share per GPU in thousandths) with its share of jobs, and optionally the CPU and memory
// a task of the class needs and the GPU model it requires (a node short of them strands its GPUs).
struct DemandClass {
  int num_gpus = 1;
  int gpu_milli = 1000;
  double weight = 1;
  int64_t cpu_milli = 0;   // 0 = unconstrained
  int64_t memory_mib = 0;  // 0 = unconstrained
  int32_t gpu_type = -1;   // -1 = any
};

struct PlacerParams {
  uint64_t seed = 1;
  std::vector<DemandClass> workload;  // filled by the engine from the trace
};

class Placer {
 public:
  virtual ~Placer() = default;
  // Appends the chosen slices to `out` (empty on entry) and returns true, or returns false.
  // The returned allocation must pass ClusterState::check (the engine verifies it).
  virtual bool place(const JobInfo& job, const ClusterState& cluster, Allocation& out) = 0;
};

using PlacerRegistry = Registry<Placer, const PlacerParams&>;
PlacerRegistry& placer_registry();
std::vector<std::string> placer_names();

}  // namespace mlsys::sched
