#include "gnn/train/inputs.hpp"

#include <algorithm>
#include <cmath>

#include "core/comm/tensor_ops.hpp"
#include "core/kernels/kernels.hpp"
#include "core/util/error.hpp"
#include "gnn/halo/input_halo.hpp"

namespace mlsys::gnn {

namespace k = kernels;

namespace {

// Host rows of the input features, dense or sparse (whichever the graph holds).
struct Rows {
  Tensor dense;  // [n, F]
  Csr sparse;    // rows == 0 and dense undefined: nothing yet
  bool is_sparse() const { return !dense.defined(); }
};

// A CSR always carries its values (an empty one too), so kernels and dropout read them alike.
Csr with_values(Csr m) {
  if (!m.values.defined()) m.values = Tensor::zeros({m.nnz()});
  return m;
}

// Rows `ids` of the dense feature matrix into dst from row `offset` on (L1-normalized when asked).
void gather_dense(const Graph& g, const std::vector<int32_t>& ids, Tensor& dst, int64_t offset, bool normalize) {
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

// Rows `ids` of the sparse feature matrix as a CSR (L1-normalized when asked; the same sum as the
// dense rows, since zeros add nothing).
Csr gather_sparse(const Graph& g, const std::vector<int32_t>& ids, bool normalize) {
  const int64_t n = static_cast<int64_t>(ids.size());
  std::vector<int64_t> rp(static_cast<size_t>(n) + 1, 0);
  for (int64_t i = 0; i < n; ++i) rp[i + 1] = rp[i] + g.feature_indptr[ids[i] + 1] - g.feature_indptr[ids[i]];
  std::vector<int32_t> col(static_cast<size_t>(rp[n]));
  std::vector<float> val(col.size());
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i) {
    const int64_t b = g.feature_indptr[ids[i]], e = g.feature_indptr[ids[i] + 1];
    std::copy(g.feature_indices.data() + b, g.feature_indices.data() + e, col.data() + rp[i]);
    std::copy(g.feature_values.data() + b, g.feature_values.data() + e, val.data() + rp[i]);
    if (normalize) {
      double l1 = 0;
      for (int64_t x = b; x < e; ++x) l1 += std::abs(g.feature_values[x]);
      if (l1 > 0)
        for (int64_t x = rp[i]; x < rp[i + 1]; ++x) val[x] = static_cast<float>(val[x] / l1);
    }
  }
  return with_values(Csr::from_arrays(n, g.feature_dim, std::move(rp), std::move(col), std::move(val)));
}

Rows gather_rows(const Graph& g, const std::vector<int32_t>& ids, bool normalize) {
  Rows r;
  if (g.sparse_features()) {
    r.sparse = gather_sparse(g, ids, normalize);
  } else {
    r.dense = Tensor::empty({static_cast<int64_t>(ids.size()), g.feature_dim});
    gather_dense(g, ids, r.dense, 0, normalize);
  }
  return r;
}

// Mostly-zero dense features (bag of words) become a CSR: layer 0 then costs O(nnz), not O(N F).
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
  return with_values(Csr::from_arrays(own, f, std::move(rp), std::move(col), std::move(val)));
}

// A_hat X for the owned rows, X sparse over the local rows: one accumulator row per owned node
// (host; the result is as sparse as the neighbourhoods' union of columns).
Csr aggregate_sparse(const Csr& adj_dev, const Csr& x) {
  const Csr adj = adj_dev.to(cpu_context());
  const int64_t n = adj.rows, f = x.cols;
  const int64_t* ap = adj.row_ptr.data<int64_t>();
  const int32_t* ac = adj.col.data<int32_t>();
  const float* av = adj.values.data<float>();
  const int64_t* xp = x.row_ptr.data<int64_t>();
  const int32_t* xc = x.col.data<int32_t>();
  const float* xv = x.nnz() ? x.values.data<float>() : nullptr;
  std::vector<std::vector<int32_t>> cols(static_cast<size_t>(n));
  std::vector<std::vector<float>> vals(static_cast<size_t>(n));
#pragma omp parallel
  {
    std::vector<float> acc(static_cast<size_t>(f), 0.0f);
    std::vector<uint8_t> seen(static_cast<size_t>(f), 0);
    std::vector<int32_t> touched;
#pragma omp for schedule(dynamic, 256)
    for (int64_t i = 0; i < n; ++i) {
      touched.clear();
      for (int64_t e = ap[i]; e < ap[i + 1]; ++e)
        for (int64_t t = xp[ac[e]]; t < xp[ac[e] + 1]; ++t) {
          if (!seen[xc[t]]) {
            seen[xc[t]] = 1;
            touched.push_back(xc[t]);
          }
          acc[xc[t]] += av[e] * xv[t];
        }
      std::sort(touched.begin(), touched.end());
      for (int32_t c : touched) {
        if (acc[c] != 0.0f) {
          cols[i].push_back(c);
          vals[i].push_back(acc[c]);
        }
        acc[c] = 0.0f;
        seen[c] = 0;
      }
    }
  }
  std::vector<int64_t> rp(static_cast<size_t>(n) + 1, 0);
  for (int64_t i = 0; i < n; ++i) rp[i + 1] = rp[i] + static_cast<int64_t>(cols[i].size());
  std::vector<int32_t> col(static_cast<size_t>(rp[n]));
  std::vector<float> val(col.size());
  for (int64_t i = 0; i < n; ++i) {
    std::copy(cols[i].begin(), cols[i].end(), col.begin() + rp[i]);
    std::copy(vals[i].begin(), vals[i].end(), val.begin() + rp[i]);
  }
  return with_values(Csr::from_arrays(n, f, std::move(rp), std::move(col), std::move(val)));
}

// The layer-0 input: the owned rows, with the halo rows after them when the input halo is cached
// (fetched once at full precision) or the first layer is precomputed (A_hat X needs them once).
void load_features(WorkerInputs& in, comm::Communicator& c, DeviceContext& ctx, const Graph& g, const HaloPlan& plan,
                   const LocalGraph& lg, const InputSettings& how) {
  const int64_t own = plan.num_owned(), f = g.feature_dim;
  const bool exchanging = plan.parts > 1;
  const bool need_halo = exchanging && (how.precompute || how.cache_input);
  // One worker reads a dense (possibly memory-mapped) feature matrix in place: its rows are the
  // graph's, in order. The host tensor wrapping it is the input on the host (.to(ctx) below keeps
  // it) and the source of the one upload on a device.
  const bool in_place = !exchanging && !how.normalize && !g.sparse_features();
  Rows x;
  if (in_place) {
    // The tensor shares the features' owner: the command releases the graph's features once
    // every worker has built its inputs (TrainSetup::inputs_built), and this worker still reads them.
    x.dense = Tensor::wrap(const_cast<float*>(g.features.data()), {own, f}, DType::f32,
                           std::const_pointer_cast<void>(g.features.owner()));
  } else {
    x = gather_rows(g, plan.owned, how.normalize);
  }
  if (need_halo) {
    // Collective: every rank fetches (all ranks hold the same settings).
    if (x.is_sparse()) x.sparse = stack_rows(x.sparse, with_values(fetch_halo_rows(c, ctx, plan, x.sparse)));
    else x.dense = stack_rows(x.dense, fetch_halo_rows(c, ctx, plan, x.dense));
  }
  // Only the rows gathered above (or A_hat X) are read from now on.
  if (how.alone && !in_place) g.features.release_pages();
  if (how.alone) {
    g.feature_indptr.release_pages();
    g.feature_indices.release_pages();
    g.feature_values.release_pages();
  }
  if (how.precompute) {
    if (x.is_sparse()) {
      in.x_sparse = k::for_spmm_t(ctx, aggregate_sparse(lg.adj, x.sparse));
    } else {
      in.x = Tensor::empty({own, f}, DType::f32, ctx);
      k::spmm(ctx, lg.adj, x.dense.to(ctx), in.x);
      if (how.alone && in_place) g.features.release_pages();
    }
    return;
  }
  in.local_input = need_halo;
  if (x.is_sparse() && how.sparse_ok) {
    in.x_sparse = k::for_spmm_t(ctx, x.sparse);
    return;
  }
  Tensor dense = x.is_sparse() ? Tensor() : x.dense;
  if (x.is_sparse()) {  // an architecture that reads dense inputs only
    dense = Tensor::zeros({x.sparse.rows, f});
    const int64_t* rp = x.sparse.row_ptr.data<int64_t>();
    for (int64_t r = 0; r < x.sparse.rows; ++r)
      for (int64_t e = rp[r]; e < rp[r + 1]; ++e)
        dense.data<float>()[r * f + x.sparse.col.data<int32_t>()[e]] = x.sparse.values.data<float>()[e];
  }
  // Mostly-zero dense features take layer 0's sparse path on every device (both backends multiply a
  // CSR input, as they do for natively sparse features): O(nnz) work and upload instead of O(N F).
  if (how.sparse_ok && dense.rows() > 0) {
    Csr s = sparse_if_mostly_zero(dense);
    if (s.rows) {
      in.x_sparse = k::for_spmm_t(ctx, s);
      return;
    }
  }
  in.x = dense.to(ctx);
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
  for (int i = 0; i < 3; ++i) {  // one value at a time, as the modeled link time has always counted them
    in.total[i] = in.local[i];
    comm::all_reduce_host(c, ctx, &in.total[i], 1, DType::i64);
  }
  if (in.total[0] == 0) throw InputError("the graph has no labeled training nodes");
}

}  // namespace

WorkerInputs build_inputs(comm::Communicator& c, DeviceContext& ctx, const Graph& g, const HaloPlan& plan,
                          const LocalGraph& lg, const InputSettings& how) {
  WorkerInputs in;
  load_features(in, c, ctx, g, plan, lg, how);
  load_labels(in, c, ctx, g, plan);
  return in;
}

}  // namespace mlsys::gnn
