#pragma once
// The simulated cluster: physical nodes (with rack and spine switch, GPU type, CPU, memory),
// link classes, and logical partitions (virtual clusters with a GPU quota in a shared pool, or a
// fixed node set when the cluster is hard-partitioned as in Helios, where each VC is simulated on
// its own nodes).
#include <map>
#include <string>
#include <vector>

#include "sched/api/cluster_state.hpp"
#include "sim/engine/links.hpp"

namespace mlsys::sim {

struct VcSpec {
  std::string name;
  int quota_gpus = -1;     // shared pool: guaranteed GPUs (-1 = none)
  std::vector<int> nodes;  // hard partition: the VC's nodes (indices into ClusterSpec::nodes)
};

struct ClusterSpec {
  std::vector<sched::NodeSpec> nodes;
  std::vector<std::string> gpu_types = {"gpu"};
  std::vector<VcSpec> vcs;
  bool hard_partition = false;  // true: each VC runs alone on its node set
  bool borrowing = false;       // shared pool with quotas: VCs may use idle GPUs beyond quota
  // Link bandwidths (Gbps): within a node, node to rack switch, rack uplink, spine uplink. Used by
  // the links slowdown model (sim.slowdown_model: links).
  LinkBandwidths links;

  int total_gpus() const;
  int vc_index(const std::string& name) const;  // -1 when absent
  std::string describe() const;                  // "1000 nodes, 8000 GPUs (v100), 125 racks, 3 VCs"
};

// The nodes of one VC as their own cluster (hard partitions).
sched::ClusterState partition_state(const ClusterSpec& spec, const VcSpec& vc);
sched::ClusterState whole_state(const ClusterSpec& spec);

}  // namespace mlsys::sim
