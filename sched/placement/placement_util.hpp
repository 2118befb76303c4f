#pragma once
// Building blocks the placers share.
#include "sched/api/allocation.hpp"
#include "sched/api/cluster_state.hpp"
#include "sched/api/job_info.hpp"

namespace mlsys::sched {

// Whether the job fits on one node (its GPU count is at most the largest node's, or fractional).
inline bool single_node_job(const JobInfo& job, const ClusterState& c) {
  return job.num_gpus <= c.max_node_gpus();
}

// Best fit on one node: the node with the fewest whole free GPUs that can host the job (ties to
// the lower index); for fractional and CPU-only jobs the node with the least free GPU share /
// CPU that can host it. This is Helios' "consolidate" rule for jobs of at most one node.
bool best_fit_node(const JobInfo& job, const ClusterState& c, Allocation& out);

// Helios' consolidate rule for jobs larger than a node: whole free nodes in index order for
// multiples of the node size; otherwise floor(g/size) free nodes plus the remaining node with the
// most free GPUs for the rest.
bool consolidate_multi_node(const JobInfo& job, const ClusterState& c, Allocation& out);

// First node (lowest index) that can host `gpus` of the job, starting after `after`; -1 if none.
int first_fit_node(const JobInfo& job, const ClusterState& c, int gpus, int after = -1);

}  // namespace mlsys::sched
