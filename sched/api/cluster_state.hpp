#pragma once
// Free resources of the simulated cluster, per node and per GPU. Policies and placers read it
// (const); only the engine changes it, through check()/allocate()/release(), so every decision is
// validated against the same bookkeeping. Nodes are bucketed by their count of whole free GPUs so
// best-fit searches cost O(buckets x nodes/64) instead of a scan of every node.
#include <cstdint>
#include <string>
#include <vector>

#include "sched/api/allocation.hpp"
#include "sched/api/job_info.hpp"

namespace mlsys::sched {

struct NodeSpec {
  std::string name;
  int32_t rack = 0;    // rack / leaf switch index
  int32_t spine = 0;   // upper switch (pod) index
  int32_t gpus = 8;
  int32_t gpu_type = 0;  // index into the cluster's GPU type list
  int64_t cpu_milli = 0;   // 0 = unconstrained
  int64_t memory_mib = 0;  // 0 = unconstrained
};

class ClusterState {
 public:
  ClusterState() = default;
  ClusterState(std::vector<NodeSpec> nodes, std::vector<std::string> gpu_types);

  int num_nodes() const { return static_cast<int>(nodes_.size()); }
  const NodeSpec& node(int n) const { return nodes_[n]; }
  const std::vector<std::string>& gpu_types() const { return gpu_types_; }
  int max_node_gpus() const { return max_gpus_; }
  int num_racks() const { return num_racks_; }
  int total_gpus() const { return total_gpus_; }

  // Whole GPUs that are completely free on node n / in the cluster.
  int free_gpus(int n) const { return free_whole_[n]; }
  int total_free_gpus() const { return total_free_whole_; }
  // Free share of GPU g on node n, and of the whole cluster (in thousandths of a GPU).
  int gpu_free_milli(int n, int g) const { return free_milli_[gpu_offset_[n] + g]; }
  int64_t total_free_milli() const { return total_free_milli_; }
  int64_t free_cpu(int n) const { return free_cpu_[n]; }
  int64_t free_memory(int n) const { return free_mem_[n]; }
  // Milli-GPUs allocated in total (for utilization).
  int64_t used_milli() const { return int64_t{total_gpus_} * 1000 - total_free_milli_; }

  // Nodes with exactly k whole free GPUs, in index order: first and next (-1 when none).
  int count_with_free(int k) const { return bucket_count_[k]; }
  int first_with_free(int k) const { return next_with_free(k, -1); }
  int next_with_free(int k, int after) const;

  // Whether node n can host `gpus_here` of job's GPUs (type, whole/fractional GPU share, and the
  // node's part of the CPU and memory demand).
  bool can_host(int n, const JobInfo& job, int gpus_here) const;
  // Appends `count` slices on node n for the job: the lowest-index whole free GPUs, or for a
  // fractional job the GPU with the least free share that still fits (best fit). Assumes can_host.
  void pick_gpus(int n, const JobInfo& job, int count, Allocation& out) const;

  // "" when `a` is a valid placement for `job` now, else why not (names node and GPU).
  std::string check(const JobInfo& job, const Allocation& a) const;
  void allocate(const JobInfo& job, const Allocation& a);
  void release(const JobInfo& job, const Allocation& a);

 private:
  void set_whole(int n, int value);
  template <class F>
  void for_each_node_share(const JobInfo& job, const Allocation& a, F&& f) const;

  std::vector<NodeSpec> nodes_;
  std::vector<std::string> gpu_types_;
  std::vector<int32_t> gpu_offset_;
  std::vector<int32_t> free_milli_;
  std::vector<int32_t> free_whole_;
  std::vector<int64_t> free_cpu_, free_mem_;
  std::vector<std::vector<uint64_t>> buckets_;  // [k] bitset over nodes
  std::vector<int32_t> bucket_count_;
  int max_gpus_ = 0, num_racks_ = 0, total_gpus_ = 0, total_free_whole_ = 0;
  int64_t total_free_milli_ = 0;
};

}  // namespace mlsys::sched
