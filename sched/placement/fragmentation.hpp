#pragma once
// FGD's fragmentation measure (Weng et al., ATC'23): the GPU share of a node that a task of a
// given demand could not use, averaged over the expected workload's demand classes.
//
// For one task class on one node: when the task cannot run there at all (GPU type, too few GPUs
// with enough free share, or not enough free CPU or memory), every free GPU share is a fragment;
// when it can, the free share of GPUs too small for it (partly used GPUs for whole-GPU tasks) is.
// A CPU-only task that fits strands nothing. This follows the paper's Q1/Q2/Q4 cases and its
// simulator (alibaba/kubernetes-scheduler-simulator), where a node short of CPU strands its GPUs.
#include <cstdint>
#include <vector>

#include "sched/api/cluster_state.hpp"
#include "sched/api/placer.hpp"

namespace mlsys::sched {

// A node's free resources as the measure sees them.
struct NodeFree {
  const int* free = nullptr;  // free share of each GPU (thousandths)
  int gpus = 0;
  int gpu_type = -1;          // -1 matches every task
  int64_t cpu = -1;           // free CPU milli; -1 = unconstrained
  int64_t memory = -1;        // free MiB; -1 = unconstrained
};

// Node n of the cluster, with its GPU shares copied into `buffer` (at least node(n).gpus ints).
NodeFree node_free(const ClusterState& c, int n, int* buffer);

// Unusable free share (thousandths of a GPU) of a node for one task class.
double task_fragmentation(const NodeFree& node, const DemandClass& task);
// GPUs only (no type, CPU or memory limits): per-GPU free shares `free[0..gpus)`.
double task_fragmentation(const int* free, int gpus, const DemandClass& task);
// Weighted average over the workload (weights need not sum to 1).
double node_fragmentation(const NodeFree& node, const std::vector<DemandClass>& workload);
// Sum over nodes (the cluster's FGD score, in thousandths of a GPU).
double cluster_fragmentation(const ClusterState& c, const std::vector<DemandClass>& workload);

}  // namespace mlsys::sched
