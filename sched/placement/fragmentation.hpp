#pragma once
// FGD's fragmentation measure (Weng et al., ATC'23): the GPU share of a node that a task of a
// given demand could not use, averaged over the expected workload's demand classes.
#include <vector>

#include "sched/api/cluster_state.hpp"
#include "sched/api/placer.hpp"

namespace mlsys::sched {

// Unusable free share (thousandths of a GPU) of a node with per-GPU free shares `free[0..gpus)`
// for one task class: everything when the task cannot fit at all, else the free share of GPUs
// too small for it.
double task_fragmentation(const int* free, int gpus, const DemandClass& task);
// Weighted average over the workload (weights need not sum to 1).
double node_fragmentation(const int* free, int gpus, const std::vector<DemandClass>& workload);
// Sum over nodes (the cluster's FGD score, in thousandths of a GPU).
double cluster_fragmentation(const ClusterState& c, const std::vector<DemandClass>& workload);

}  // namespace mlsys::sched
