#include "gnn/model/local_graph.hpp"

#include <cmath>

namespace mlsys::gnn {

LocalGraph build_local_graph(DeviceContext& ctx, const HaloPlan& plan, Adjacency which) {
  LocalGraph lg;
  lg.owned = plan.num_owned();
  lg.local = plan.num_local();
  std::vector<int32_t> ids = plan.owned;
  ids.insert(ids.end(), plan.halo.begin(), plan.halo.end());
  lg.global_ids = Tensor::from_vector(std::move(ids)).to(ctx);
  const int64_t n = lg.owned;
  const bool square = plan.parts == 1;
  if (which == Adjacency::gcn || which == Adjacency::attention) {
    // Insert the self loop at its sorted position (owned local id i < every halo id).
    std::vector<int64_t> rp(static_cast<size_t>(n) + 1, 0);
    std::vector<int32_t> col(plan.indices.size() + static_cast<size_t>(n));
    std::vector<float> val(which == Adjacency::gcn ? col.size() : 0);
    for (int64_t i = 0; i < n; ++i) {
      int64_t o = rp[i];
      bool self_done = false;
      const double di = plan.degree[i] + 1.0;
      auto put = [&](int32_t c) {
        col[o] = c;
        if (!val.empty()) val[o] = static_cast<float>(1.0 / std::sqrt(di * (plan.degree[c] + 1.0)));
        ++o;
      };
      for (int64_t e = plan.indptr[i]; e < plan.indptr[i + 1]; ++e) {
        int32_t c = plan.indices[e];
        if (!self_done && c > i) {
          put(static_cast<int32_t>(i));
          self_done = true;
        }
        put(c);
      }
      if (!self_done) put(static_cast<int32_t>(i));
      rp[i + 1] = o;
    }
    Csr a = Csr::from_arrays(n, lg.local, std::move(rp), std::move(col), std::move(val));
    a.symmetric = square && which == Adjacency::gcn;
    // Attention's edge kernels read the transpose's edge ids; GCN's spmm_t passes no per-edge
    // values, so its transpose keeps none (the host's scatter, which needs no transpose at all,
    // made sbm_100k's epochs about 4% slower: its narrow last layer scatters 10-float rows).
    lg.adj = a.with_transpose(which == Adjacency::attention).to(ctx);
  } else {
    std::vector<int64_t> rp(plan.indptr.begin(), plan.indptr.end());
    std::vector<int32_t> col(plan.indices.begin(), plan.indices.end());
    std::vector<float> val(col.size());
    for (int64_t i = 0; i < n; ++i)
      for (int64_t e = rp[i]; e < rp[i + 1]; ++e) val[e] = 1.0f / static_cast<float>(rp[i + 1] - rp[i]);
    lg.adj = Csr::from_arrays(n, lg.local, std::move(rp), std::move(col), std::move(val)).with_transpose(false).to(ctx);
  }
  return lg;
}

}  // namespace mlsys::gnn
