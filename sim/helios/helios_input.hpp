#pragma once
// Inputs of the Helios compatibility mode, in the Helios artifact's "Philly" format:
//   cluster_log.csv   user,vc,jobname,gpu_num,state,submit_time,duration[,...] (other columns ignored;
//                     submit_time as "YYYY-MM-DD HH:MM:SS" or whole seconds)
//   vc_config.csv     vc,node num[,gpus_per_node]   (philly_vc_nodes.csv has the same first columns)
//   priority file     jobname,priority               (QSSF's per-job priority input)
#include <map>
#include <string>
#include <vector>

#include "sim/helios/helios_sim.hpp"

namespace mlsys::sim::helios {

// Jobs in file order; submit times relative to the earliest one (or to `origin` when it is a
// datetime text). Throws InputError naming file:line:column on a bad row.
std::vector<Job> load_cluster_log(const std::string& path, const std::string& origin = "");
// VC -> node count (and the GPUs per node when the file has that column; else default_gpus).
struct VcNodes {
  int nodes = 0;
  int gpus_per_node = 8;
};
std::map<std::string, VcNodes> load_vc_config(const std::string& path, int default_gpus = 8);
// Fills Job::priority_p from the file (jobs not listed keep has_priority_p = false).
void load_priorities(const std::string& path, std::vector<Job>& jobs);

}  // namespace mlsys::sim::helios
