#pragma once
// How the simulated cluster is built (keys `cluster.*` of the `sim:` config section).
#include <cstdint>
#include <string>
#include <vector>

#include "core/config/schema.hpp"
#include "sim/cluster/cluster_spec.hpp"

namespace mlsys::sim {

struct ClusterOptions {
  std::string kind = "uniform";  // uniform | yaml | philly | openb | tiresias
  std::string path;              // yaml topology file, openb node list, philly VC node counts, tiresias spec
  config::YamlValue topology;    // inline YAML topology (kind yaml, when path is empty)
  int nodes = 16;
  int gpus_per_node = 8;
  int nodes_per_rack = 8;
  int racks_per_spine = 8;
  std::string gpu_type = "v100";
  int64_t cpu_milli = 0;   // per node; 0 = unconstrained
  int64_t memory_mib = 0;  // per node; 0 = unconstrained
  std::string partition = "auto";  // auto | hard | shared
  bool borrowing = false;
  std::vector<std::string> vcs;   // shared pool: VC names with quotas (parallel to vc_quotas)
  std::vector<int> vc_quotas;
  int default_vc_nodes = 1;       // philly: nodes for trace VCs missing from the file
  double scale = 1;               // multiplies node counts (sweeps over cluster size)
};

// kind, path, topology, nodes, ... (nested as cluster.*).
const config::Section<ClusterOptions>& cluster_section();

// Builds the cluster. `trace_vcs` are the VCs the trace uses (in first-seen order): hard
// partitions need each of them; shared pools add the missing ones without quota.
ClusterSpec build_cluster(const ClusterOptions& o, const std::vector<std::string>& trace_vcs);

// Parses the YAML topology format documented in docs/simulate.md (errors name file:line:col).
ClusterSpec parse_topology(const config::YamlValue& v);

}  // namespace mlsys::sim
