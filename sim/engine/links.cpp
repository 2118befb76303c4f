#include "sim/engine/links.hpp"

#include <algorithm>

namespace mlsys::sim {

LinkModel::LinkModel(const sched::ClusterState& cluster, const LinkBandwidths& bw) : c_(cluster), bw_(bw) {
  for (int n = 0; n < c_.num_nodes(); ++n) {
    racks_ = std::max(racks_, c_.node(n).rack + 1);
    spines_ = std::max(spines_, c_.node(n).spine + 1);
  }
  // Links: nodes first, then rack uplinks, then spine uplinks.
  capacity_.assign(static_cast<size_t>(c_.num_nodes()), bw.intra_rack_gbps);
  capacity_.resize(capacity_.size() + static_cast<size_t>(racks_), bw.inter_rack_gbps);
  capacity_.resize(capacity_.size() + static_cast<size_t>(spines_), bw.inter_spine_gbps);
  users_.resize(capacity_.size());
}

void LinkModel::add(sched::JobId j, const sched::Allocation& a, int need_nodes, double comm_gbps) {
  if (comm_gbps <= 0) return;
  Entry e;
  std::vector<int32_t> nodes, racks, spines;
  for (const auto& s : a) {
    nodes.push_back(s.node);
    racks.push_back(c_.node(s.node).rack);
    spines.push_back(c_.node(s.node).spine);
  }
  auto distinct = [](std::vector<int32_t>& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  };
  distinct(nodes);
  if (nodes.size() < 2) return;  // NVLink inside one node: the trace's own speed
  distinct(racks);
  distinct(spines);
  const int32_t rack0 = c_.num_nodes(), spine0 = rack0 + racks_;
  e.links = nodes;
  if (racks.size() > 1)
    for (int32_t r : racks) e.links.push_back(rack0 + r);
  if (spines.size() > 1)
    for (int32_t s : spines) e.links.push_back(spine0 + s);
  const double bw0 = need_nodes <= 1 ? bw_.intra_node_gbps : bw_.intra_rack_gbps;
  // The trace speed includes moving these bytes over bw0, so no job moves more than bw0 at it:
  // a demand above (a tiny-batch job's step rate x its gradients) means it is bound by the link,
  // and its slowdown is at most bw0 / bw.
  e.comm = std::min(comm_gbps, bw0);
  e.inv_bw0 = 1.0 / bw0;
  for (int32_t l : e.links) users_[l].push_back(j);
  jobs_[j] = std::move(e);
}

void LinkModel::remove(sched::JobId j) {
  auto it = jobs_.find(j);
  if (it == jobs_.end()) return;
  for (int32_t l : it->second.links) {
    auto& u = users_[l];
    u.erase(std::find(u.begin(), u.end(), j));
  }
  jobs_.erase(it);
}

double LinkModel::slowdown(sched::JobId j) const {
  auto it = jobs_.find(j);
  if (it == jobs_.end()) return 1;
  const Entry& e = it->second;
  double bw = 1e300;
  for (int32_t l : e.links) bw = std::min(bw, capacity_[l] / static_cast<double>(users_[l].size()));
  return std::max(1.0, 1 + e.comm * (1 / bw - e.inv_bw0));
}

std::vector<sched::JobId> LinkModel::neighbours(sched::JobId j) const {
  std::vector<sched::JobId> out;
  auto it = jobs_.find(j);
  if (it == jobs_.end()) return out;
  for (int32_t l : it->second.links)
    for (sched::JobId k : users_[l])
      if (k != j) out.push_back(k);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace mlsys::sim
