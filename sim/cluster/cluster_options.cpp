#include "sim/cluster/cluster_options.hpp"

namespace mlsys::sim {

const config::Section<ClusterOptions>& cluster_section() {
  using C = ClusterOptions;
  static const config::Section<C> s("cluster", "The simulated cluster", [](auto& s) {
    s.field("kind", &C::kind, "Cluster builder: uniform, yaml (topology), philly (VC node counts, hard partitions), openb (node list), tiresias (spec CSV)")
        .choices({"uniform", "yaml", "philly", "openb", "tiresias"});
    s.field("path", &C::path, "File for the builder: YAML topology, openb node list, philly_vc_nodes.csv or Tiresias cluster spec");
    s.field("topology", &C::topology, "Inline YAML topology (kind yaml): racks, nodes, GPU types, links, VCs");
    s.field("nodes", &C::nodes, "uniform: number of nodes").range(1, 1e7);
    s.field("gpus_per_node", &C::gpus_per_node, "uniform/philly: GPUs per node").range(0, 64);
    s.field("nodes_per_rack", &C::nodes_per_rack, "Nodes per rack (generated clusters)").range(1, 1e6);
    s.field("racks_per_spine", &C::racks_per_spine, "Racks per spine switch (generated clusters)").range(1, 1e6);
    s.field("gpu_type", &C::gpu_type, "GPU model of generated clusters");
    s.field("cpu_milli", &C::cpu_milli, "CPU per node in thousandths of a core (0 = unconstrained)").range(0, 1e12);
    s.field("memory_mib", &C::memory_mib, "Memory per node in MiB (0 = unconstrained)").range(0, 1e12);
    s.field("partition", &C::partition, "auto (philly: hard, else shared), hard (each VC on its own nodes, as Helios) or shared (one pool, VC quotas)")
        .choices({"auto", "hard", "shared"});
    s.field("borrowing", &C::borrowing, "Shared pool: VCs may borrow idle GPUs beyond their quota (reclaimed by preemption under fairshare)");
    s.field("vcs", &C::vcs, "Shared pool: VC names that get a quota");
    s.field("vc_quotas", &C::vc_quotas, "Shared pool: guaranteed GPUs of each cluster.vcs entry");
    s.field("default_vc_nodes", &C::default_vc_nodes, "philly: nodes for trace VCs missing from the node-count file").range(0, 1e6);
    s.field("scale", &C::scale, "Multiplies node counts (sweeps over cluster size)").range(1e-3, 1e3);
  });
  return s;
}

}  // namespace mlsys::sim
