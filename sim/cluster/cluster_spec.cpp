#include "sim/cluster/cluster_spec.hpp"

#include <set>

namespace mlsys::sim {

int ClusterSpec::total_gpus() const {
  int s = 0;
  for (const auto& n : nodes) s += n.gpus;
  return s;
}

int ClusterSpec::vc_index(const std::string& name) const {
  for (size_t i = 0; i < vcs.size(); ++i)
    if (vcs[i].name == name) return static_cast<int>(i);
  return -1;
}

std::string ClusterSpec::describe() const {
  std::set<int> racks;
  for (const auto& n : nodes) racks.insert(n.rack);
  std::string types;
  for (size_t i = 0; i < gpu_types.size(); ++i) types += (i ? "," : "") + gpu_types[i];
  std::string s = std::to_string(nodes.size()) + " nodes, " + std::to_string(total_gpus()) + " GPUs (" + types +
                  "), " + std::to_string(racks.size()) + " racks";
  if (!vcs.empty())
    s += ", " + std::to_string(vcs.size()) + " VCs (" + (hard_partition ? "hard partitions" : "shared pool") + ")";
  return s;
}

sched::ClusterState partition_state(const ClusterSpec& spec, const VcSpec& vc) {
  std::vector<sched::NodeSpec> nodes;
  for (int n : vc.nodes) nodes.push_back(spec.nodes[n]);
  return sched::ClusterState(std::move(nodes), spec.gpu_types);
}

sched::ClusterState whole_state(const ClusterSpec& spec) { return sched::ClusterState(spec.nodes, spec.gpu_types); }

}  // namespace mlsys::sim
