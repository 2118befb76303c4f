#include "gnn/train/inputs.hpp"

#include <algorithm>
#include <cmath>

#include "core/kernels/kernels.hpp"
#include "core/util/error.hpp"

namespace mlsys::gnn {

namespace k = kernels;

namespace {

// Rows `ids` of the feature matrix into dst from row `offset` on (L1-normalized when asked).
void gather_features(const Graph& g, const std::vector<int32_t>& ids, Tensor& dst, int64_t offset, bool normalize) {
  const int64_t f = g.feature_dim;
  float* d = dst.data<float>();
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < static_cast<int64_t>(ids.size()); ++i) {
    const float* src = g.features.data() + static_cast<int64_t>(ids[i]) * f;
    float* row = d + (offset + i) * f;
    std::copy(src, src + f, row);
    if (normalize) {
      double l1 = 0;
      for (int64_t c = 0; c < f; ++c) l1 += std::abs(src[c]);
      if (l1 > 0)
        for (int64_t c = 0; c < f; ++c) row[c] = static_cast<float>(row[c] / l1);
    }
  }
}

// Mostly-zero raw features (bag of words) become a CSR: layer 0 then costs O(nnz), not O(N F).
// Returns an empty CSR when the input is dense enough.
Csr sparse_if_mostly_zero(const Tensor& x) {
  const int64_t own = x.rows(), f = x.row_numel();
  const float* xp = x.data<float>();
  int64_t nnz = 0;
  for (int64_t i = 0; i < own * f; ++i) nnz += xp[i] != 0.0f;
  if (nnz >= own * f / 10) return Csr();
  std::vector<int64_t> rp(static_cast<size_t>(own) + 1, 0);
  std::vector<int32_t> col;
  std::vector<float> val;
  col.reserve(static_cast<size_t>(nnz));
  val.reserve(static_cast<size_t>(nnz));
  for (int64_t i = 0; i < own; ++i) {
    for (int64_t c = 0; c < f; ++c)
      if (xp[i * f + c] != 0.0f) {
        col.push_back(static_cast<int32_t>(c));
        val.push_back(xp[i * f + c]);
      }
    rp[i + 1] = static_cast<int64_t>(col.size());
  }
  return Csr::from_arrays(own, f, std::move(rp), std::move(col), std::move(val)).with_transpose();
}

// The features of the owned rows (and, for a precomputed first layer, A_hat X over owned + halo).
void load_features(WorkerInputs& in, DeviceContext& ctx, const Graph& g, const HaloPlan& plan, const LocalGraph& lg,
                   const InputSettings& how) {
  const int64_t own = plan.num_owned(), f = g.feature_dim;
  // One worker on the host reads the (possibly memory-mapped) feature matrix in place.
  const bool in_place = plan.parts == 1 && !how.normalize && ctx.device().is_cpu();
  if (how.precompute) {
    Tensor ext;
    if (in_place) {
      ext = Tensor::wrap(const_cast<float*>(g.features.data()), {own, f}, DType::f32);
    } else {
      ext = Tensor::empty({plan.num_local(), f});
      gather_features(g, plan.owned, ext, 0, how.normalize);
      gather_features(g, plan.halo, ext, own, how.normalize);
    }
    in.x = Tensor::empty({own, f}, DType::f32, ctx);
    k::spmm(ctx, lg.adj, ext.to(ctx), in.x);
    ext = Tensor();
    if (how.alone) g.features.release_pages();  // only A_hat X is read from now on
  } else if (in_place) {
    in.x = Tensor::wrap(const_cast<float*>(g.features.data()), {own, f}, DType::f32);
  } else {
    Tensor h = Tensor::empty({own, f});
    gather_features(g, plan.owned, h, 0, how.normalize);
    in.x = h.to(ctx);
    if (how.alone) g.features.release_pages();
  }
  if (!how.precompute && ctx.device().is_cpu() && how.sparse_ok && own > 0) {
    in.x_sparse = sparse_if_mostly_zero(in.x);
    if (in.x_sparse.rows) in.x = Tensor();
  }
}

void load_labels(WorkerInputs& in, comm::Communicator& c, DeviceContext& ctx, const Graph& g, const HaloPlan& plan) {
  const int64_t own = plan.num_owned();
  std::vector<int32_t> y(static_cast<size_t>(own));
  for (auto& m : in.mask) m.assign(static_cast<size_t>(own), 0);
  for (int64_t i = 0; i < own; ++i) {
    const int32_t v = plan.owned[i];
    y[i] = g.labels[v];
    const uint8_t sp = g.split[v];
    if (sp >= 1 && sp <= 3 && y[i] >= 0) {
      in.mask[sp - 1][i] = 1;
      ++in.local[sp - 1];
    }
  }
  in.labels = Tensor::from_vector(y).to(ctx);
  in.multi = g.multi_label();
  const int64_t classes = g.num_classes;
  if (in.multi) {
    std::vector<int32_t> yl(static_cast<size_t>(own * classes));
    std::vector<uint8_t> tm(yl.size());
    for (int64_t i = 0; i < own; ++i)
      for (int64_t cl = 0; cl < classes; ++cl) {
        yl[i * classes + cl] = g.multi_labels[static_cast<int64_t>(plan.owned[i]) * classes + cl];
        tm[i * classes + cl] = in.mask[0][i];
      }
    in.pair_labels = Tensor::from_vector(yl).to(ctx);
    in.pair_train = Tensor::from_vector(tm).to(ctx);
    in.pair_select = Tensor::from_vector(std::vector<float>{0.0f, 1.0f}, {1, 2}).to(ctx);
  }
  for (int i = 0; i < 3; ++i) in.mask_t[i] = Tensor::from_vector(in.mask[i]).to(ctx);
  for (int i = 0; i < 3; ++i) in.total[i] = c.all_reduce_value<int64_t>(in.local[i]);
  if (in.total[0] == 0) throw InputError("the graph has no labeled training nodes");
}

}  // namespace

WorkerInputs build_inputs(comm::Communicator& c, DeviceContext& ctx, const Graph& g, const HaloPlan& plan,
                          const LocalGraph& lg, const InputSettings& how) {
  WorkerInputs in;
  load_features(in, ctx, g, plan, lg, how);
  load_labels(in, c, ctx, g, plan);
  return in;
}

}  // namespace mlsys::gnn
