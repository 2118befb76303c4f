#include "gnn/halo/halo_plan.hpp"

#include <algorithm>
#include <unordered_map>

namespace mlsys::gnn {

int64_t HaloPlan::total_send_rows() const {
  int64_t s = 0;
  for (const auto& r : send_rows) s += static_cast<int64_t>(r.size());
  return s;
}

HaloPlan build_halo_plan(const Graph& g, const std::vector<int32_t>& owner, int parts, int rank) {
  HaloPlan p;
  p.rank = rank;
  p.parts = parts;
  const int64_t n = g.num_nodes;
  for (int64_t v = 0; v < n; ++v)
    if (owner[v] == rank) p.owned.push_back(static_cast<int32_t>(v));
  // Local id of every global node this worker touches: owned via a dense map for speed.
  std::vector<int32_t> local(static_cast<size_t>(n), -1);
  for (size_t i = 0; i < p.owned.size(); ++i) local[p.owned[i]] = static_cast<int32_t>(i);

  std::vector<std::vector<int32_t>> halo_by_peer(static_cast<size_t>(parts)), send_by_peer(static_cast<size_t>(parts));
  for (size_t i = 0; i < p.owned.size(); ++i) {
    const int32_t u = p.owned[i];
    for (int64_t e = g.indptr[u]; e < g.indptr[u + 1]; ++e) {
      const int32_t v = g.indices[e];
      const int32_t q = owner[v];
      if (q == rank) continue;
      halo_by_peer[q].push_back(v);
      send_by_peer[q].push_back(static_cast<int32_t>(i));
    }
  }
  p.halo_offset.assign(static_cast<size_t>(parts) + 1, 0);
  p.send_rows.resize(static_cast<size_t>(parts));
  for (int q = 0; q < parts; ++q) {
    auto& h = halo_by_peer[q];
    std::sort(h.begin(), h.end());
    h.erase(std::unique(h.begin(), h.end()), h.end());
    for (int32_t v : h) {
      local[v] = static_cast<int32_t>(p.owned.size() + p.halo.size());
      p.halo.push_back(v);
    }
    p.halo_offset[q + 1] = static_cast<int64_t>(p.halo.size());
    // Peer q's halo from us is our owned nodes adjacent to q, ascending global id = ascending local id.
    auto& s = send_by_peer[q];
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    p.send_rows[q] = std::move(s);
  }
  p.indptr.assign(p.owned.size() + 1, 0);
  for (size_t i = 0; i < p.owned.size(); ++i) p.indptr[i + 1] = p.indptr[i] + g.degree(p.owned[i]);
  p.indices.resize(static_cast<size_t>(p.indptr.back()));
  for (size_t i = 0; i < p.owned.size(); ++i) {
    const int32_t u = p.owned[i];
    int64_t o = p.indptr[i];
    for (int64_t e = g.indptr[u]; e < g.indptr[u + 1]; ++e) p.indices[o++] = local[g.indices[e]];
  }
  p.degree.resize(static_cast<size_t>(p.num_local()));
  for (size_t i = 0; i < p.owned.size(); ++i) p.degree[i] = static_cast<int32_t>(g.degree(p.owned[i]));
  for (size_t i = 0; i < p.halo.size(); ++i) p.degree[p.owned.size() + i] = static_cast<int32_t>(g.degree(p.halo[i]));
  return p;
}

std::vector<HaloPlan> build_halo_plans(const Graph& g, const std::vector<int32_t>& owner, int parts) {
  std::vector<HaloPlan> plans;
  for (int p = 0; p < parts; ++p) plans.push_back(build_halo_plan(g, owner, parts, p));
  return plans;
}

}  // namespace mlsys::gnn
