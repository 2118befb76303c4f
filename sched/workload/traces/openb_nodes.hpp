#pragma once
// Alibaba openb 2023 node list (openb_node_list_*.csv: sn,cpu_milli,memory_mib,gpu,model), the
// cluster the openb pod traces ran on. The cluster builder turns these into nodes.
#include <cstdint>
#include <string>
#include <vector>

namespace mlsys::workload {

struct NodeListEntry {
  std::string name;         // sn
  int64_t cpu_milli = 0;
  int64_t memory_mib = 0;
  int gpus = 0;
  std::string gpu_model;    // "" for CPU-only nodes
};

// Throws InputError naming file:line:col for a bad row (node lists are small; no lenient mode).
std::vector<NodeListEntry> read_openb_nodes(const std::string& path);

}  // namespace mlsys::workload
