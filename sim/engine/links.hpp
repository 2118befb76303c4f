#pragma once
// The link model of the slowdown (sim.slowdown_model: links): jobs whose GPUs span several nodes
// exchange their gradients over the network, and a job runs at the speed its slowest link allows.
//
// Links: each node's link to its rack switch (intra_rack_gbps), each rack's uplink to its spine
// (inter_rack_gbps), each spine's uplink to the core (inter_spine_gbps). A running job crosses the
// links of every node it uses when it spans several nodes, the uplinks of its racks when it spans
// several racks and those of its spines when it spans several spines. A link's bandwidth is
// divided equally among the jobs crossing it at the moment.
//
// A job's communication demand `comm_gbps` is what it moves per second at its trace speed (bytes
// per iteration x iterations per second x 8 / 1e9). Its trace duration holds at its best
// placement, whose bandwidth `bw0` is intra_node_gbps when it fits on one node, else
// intra_rack_gbps (whole nodes in one rack, links to itself). On bandwidth `bw` (the smallest
// share among the links it crosses) every iteration takes comm x (1/bw - 1/bw0) longer, relative
// to its compute, so its run time is multiplied by
//
//   slowdown = max(1, 1 + min(comm_gbps, bw0) x (1 / bw - 1 / bw0))
//
// (a job cannot move more than bw0 per second at its trace speed, which includes its
// communication: a larger demand is bounded there, so a link-bound job slows by at most bw0 / bw).
//
// Example: alone on a 20 Gbps rack uplink with comm 10 Gbps and bw0 = 100 Gbps: 1 + 10 x (1/20 -
// 1/100) = 1.4; two such jobs on that uplink get 10 Gbps each: 1.9; three get 20/3: 2.4.
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sched/api/cluster_state.hpp"

namespace mlsys::sim {

// Link bandwidths in Gbit/s (topology `links:`, or sim.cluster.links.* for generated clusters).
struct LinkBandwidths {
  double intra_node_gbps = 300;   // between GPUs of one node (NVLink): the single-node baseline
  double intra_rack_gbps = 100;   // a node's link to its rack switch
  double inter_rack_gbps = 25;    // a rack's uplink to its spine switch
  double inter_spine_gbps = 25;   // a spine's uplink to the core
};

class LinkModel {
 public:
  LinkModel(const sched::ClusterState& cluster, const LinkBandwidths& bw);

  // Job j starts running on `a` with the given communication demand; `need_nodes` is the fewest
  // nodes its GPUs fit on. Jobs on one node or without communication cross no link and are not
  // tracked (slowdown 1).
  void add(sched::JobId j, const sched::Allocation& a, int need_nodes, double comm_gbps);
  void remove(sched::JobId j);
  bool tracked(sched::JobId j) const { return jobs_.count(j) > 0; }
  // Current slowdown of a tracked job (1 for any other).
  double slowdown(sched::JobId j) const;
  // The tracked jobs other than j that share a link with j, in id order.
  std::vector<sched::JobId> neighbours(sched::JobId j) const;

 private:
  struct Entry {
    std::vector<int32_t> links;
    double comm = 0, inv_bw0 = 0;
  };
  const sched::ClusterState& c_;
  std::vector<double> capacity_;                 // per link, Gbit/s
  std::vector<std::vector<sched::JobId>> users_;  // per link: the tracked jobs crossing it
  int racks_ = 0, spines_ = 0;
  LinkBandwidths bw_;
  std::unordered_map<sched::JobId, Entry> jobs_;
};

}  // namespace mlsys::sim
