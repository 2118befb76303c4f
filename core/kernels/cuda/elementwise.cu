// Element-wise ops, reductions and optimizer updates on CUDA (grid-stride kernels).
#include "core/kernels/cuda/cuda_common.cuh"

namespace mlsys::kernels::cuda {

namespace {
template <class Fn>
__global__ void map1_kernel(const float* x, float* out, int64_t n, Fn fn) {
  MLSYS_GRID_STRIDE(i, n) out[i] = fn(x[i]);
}
template <class Fn>
__global__ void map2_kernel(const float* a, const float* b, float* out, int64_t n, Fn fn) {
  MLSYS_GRID_STRIDE(i, n) out[i] = fn(a[i], b[i]);
}
template <class Fn>
void map1(DeviceContext& ctx, const Tensor& x, const Tensor& out, const char* name, Fn fn) {
  require_f32(x, name, "input");
  require_f32(out, name, "output");
  require_same_numel(x, out, name);
  if (x.numel() == 0) return;
  map1_kernel<<<blocks_for(x.numel()), kThreads, 0, stream_of(ctx)>>>(x.data<float>(), out.data<float>(), x.numel(), fn);
  check_launch(name);
}
template <class Fn>
void map2(DeviceContext& ctx, const Tensor& a, const Tensor& b, const Tensor& out, const char* name, Fn fn) {
  require_f32(a, name, "input");
  require_f32(b, name, "input");
  require_f32(out, name, "output");
  require_same_numel(a, out, name);
  require_same_numel(b, out, name);
  if (a.numel() == 0) return;
  map2_kernel<<<blocks_for(a.numel()), kThreads, 0, stream_of(ctx)>>>(a.data<float>(), b.data<float>(), out.data<float>(),
                                                                      a.numel(), fn);
  check_launch(name);
}
}  // namespace

// Functors rather than __device__ lambdas, which would need nvcc's --extended-lambda.
namespace {
struct Const { float v; __device__ float operator()(float) const { return v; } };
struct Add { __device__ float operator()(float x, float y) const { return x + y; } };
struct Mul { __device__ float operator()(float x, float y) const { return x * y; } };
struct Scale { float a; __device__ float operator()(float v) const { return a * v; } };
struct Axpy { float a; __device__ float operator()(float x, float y) const { return y + a * x; } };
struct Relu { __device__ float operator()(float v) const { return v > 0.f ? v : 0.f; } };
struct ReluBw { __device__ float operator()(float v, float g) const { return v > 0.f ? g : 0.f; } };
struct Leaky { float s; __device__ float operator()(float v) const { return v > 0.f ? v : s * v; } };
struct LeakyBw { float s; __device__ float operator()(float v, float g) const { return v > 0.f ? g : s * g; } };
struct Elu { float a; __device__ float operator()(float v) const { return v > 0.f ? v : a * expm1f(v); } };
struct EluBw { float a; __device__ float operator()(float v, float g) const { return v > 0.f ? g : g * a * expf(v); } };
}  // namespace

void fill(DeviceContext& ctx, const Tensor& out, float value) { map1(ctx, out, out, "fill", Const{value}); }
void add(DeviceContext& ctx, const Tensor& a, const Tensor& b, const Tensor& out) { map2(ctx, a, b, out, "add", Add{}); }
void mul(DeviceContext& ctx, const Tensor& a, const Tensor& b, const Tensor& out) { map2(ctx, a, b, out, "mul", Mul{}); }
void scale(DeviceContext& ctx, const Tensor& x, float alpha, const Tensor& out) { map1(ctx, x, out, "scale", Scale{alpha}); }
void axpy(DeviceContext& ctx, float alpha, const Tensor& x, const Tensor& y) { map2(ctx, x, y, y, "axpy", Axpy{alpha}); }
void relu(DeviceContext& ctx, const Tensor& x, const Tensor& out) { map1(ctx, x, out, "relu", Relu{}); }
void relu_backward(DeviceContext& ctx, const Tensor& x, const Tensor& g, const Tensor& gi) {
  map2(ctx, x, g, gi, "relu_backward", ReluBw{});
}
void leaky_relu(DeviceContext& ctx, const Tensor& x, const Tensor& out, float slope) {
  map1(ctx, x, out, "leaky_relu", Leaky{slope});
}
void leaky_relu_backward(DeviceContext& ctx, const Tensor& x, const Tensor& g, const Tensor& gi, float slope) {
  map2(ctx, x, g, gi, "leaky_relu_backward", LeakyBw{slope});
}
void elu(DeviceContext& ctx, const Tensor& x, const Tensor& out, float alpha) { map1(ctx, x, out, "elu", Elu{alpha}); }
void elu_backward(DeviceContext& ctx, const Tensor& x, const Tensor& g, const Tensor& gi, float alpha) {
  map2(ctx, x, g, gi, "elu_backward", EluBw{alpha});
}

namespace {
__global__ void row_vector_kernel(const float* x, const float* v, float* out, int64_t n, int64_t f, bool per_row) {
  MLSYS_GRID_STRIDE(i, n * f) out[i] = per_row ? x[i] * v[i / f] : x[i] + v[i % f];
}
__global__ void dropout_kernel(const float* x, float* out, uint8_t* mask, int64_t n, float p, uint64_t seed) {
  const float inv = 1.f / (1.f - p);
  MLSYS_GRID_STRIDE(i, n) {
    const uint8_t keep = uniform_from(seed, static_cast<uint64_t>(i)) >= p;
    mask[i] = keep;
    out[i] = keep ? x[i] * inv : 0.f;
  }
}
__global__ void dropout_bw_kernel(const float* g, const uint8_t* mask, float* out, int64_t n, float p) {
  const float inv = 1.f / (1.f - p);
  MLSYS_GRID_STRIDE(i, n) out[i] = mask[i] ? g[i] * inv : 0.f;
}
}  // namespace

void add_row_vector(DeviceContext& ctx, const Tensor& x, const Tensor& bias, const Tensor& out) {
  require_f32(bias, "add_row_vector", "bias");
  const int64_t f = bias.numel(), n = x.rows();
  require_rows_cols(x, n, f, "add_row_vector", "x");
  require_rows_cols(out, n, f, "add_row_vector", "out");
  if (n * f == 0) return;
  row_vector_kernel<<<blocks_for(n * f), kThreads, 0, stream_of(ctx)>>>(x.data<float>(), bias.data<float>(),
                                                                        out.data<float>(), n, f, false);
  check_launch("add_row_vector");
}

void scale_rows(DeviceContext& ctx, const Tensor& x, const Tensor& s, const Tensor& out) {
  const int64_t n = x.rows(), f = x.row_numel();
  require_rows_cols(x, n, f, "scale_rows", "x");
  require_rows_cols(out, n, f, "scale_rows", "out");
  require_numel(s, n, "scale_rows", "s");
  if (n * f == 0) return;
  row_vector_kernel<<<blocks_for(n * f), kThreads, 0, stream_of(ctx)>>>(x.data<float>(), s.data<float>(), out.data<float>(),
                                                                        n, f, true);
  check_launch("scale_rows");
}

void dropout(DeviceContext& ctx, const Tensor& x, const Tensor& out, const Tensor& mask, float p, uint64_t seed) {
  require_f32(x, "dropout", "x");
  require_same_numel(x, out, "dropout");
  if (!mask.defined() || mask.dtype() != DType::u8) throw Error("kernels::dropout: mask must be a u8 tensor");
  require_numel(mask, x.numel(), "dropout", "mask");
  if (!(p >= 0.f && p < 1.f)) throw Error("kernels::dropout: p must be in [0, 1)");
  if (x.numel() == 0) return;
  dropout_kernel<<<blocks_for(x.numel()), kThreads, 0, stream_of(ctx)>>>(x.data<float>(), out.data<float>(),
                                                                         mask.data<uint8_t>(), x.numel(), p, seed);
  check_launch("dropout");
}

void dropout_backward(DeviceContext& ctx, const Tensor& g, const Tensor& mask, float p, const Tensor& gi) {
  require_f32(g, "dropout_backward", "grad_out");
  require_same_numel(g, gi, "dropout_backward");
  if (!mask.defined() || mask.dtype() != DType::u8) throw Error("kernels::dropout_backward: mask must be a u8 tensor");
  require_numel(mask, g.numel(), "dropout_backward", "mask");
  if (g.numel() == 0) return;
  dropout_bw_kernel<<<blocks_for(g.numel()), kThreads, 0, stream_of(ctx)>>>(g.data<float>(), mask.data<uint8_t>(),
                                                                            gi.data<float>(), g.numel(), p);
  check_launch("dropout_backward");
}

namespace {
__global__ void dropout_keyed_kernel(const float* x, const float* src, const int32_t* ids, float* out, int64_t n,
                                     int64_t f, uint32_t threshold, float scale, uint64_t seed) {
  MLSYS_GRID_STRIDE(i, n * f) {
    const int64_t r = i / f, c = i - r * f;
    const bool keep = x[i] != 0.0f && keyed_keep(keyed_row_key(seed, ids[r]), c, threshold);
    out[i] = keep ? src[i] * scale : 0.0f;
  }
}
template <class Col>
__global__ void dropout_keyed_csr_kernel(const int64_t* rp, const Col* col, const float* v, const int32_t* ids,
                                         float* out, int64_t rows, float p, float scale, uint64_t seed) {
  MLSYS_GRID_STRIDE(r, rows) {
    for (int64_t e = rp[r]; e < rp[r + 1]; ++e)
      out[e] = keyed_keep_nonzero(seed, ids[r], static_cast<int64_t>(col[e]), p) ? v[e] * scale : 0.0f;
  }
}
}  // namespace

void dropout_keyed(DeviceContext& ctx, const Tensor& x, const Tensor& src, const Tensor& ids, float p, uint64_t seed,
                   const Tensor& out) {
  const RowDims d = check_dropout_keyed(x, src, ids, p, out);
  if (d.n * d.f == 0) return;
  dropout_keyed_kernel<<<blocks_for(d.n * d.f), kThreads, 0, stream_of(ctx)>>>(
      x.data<float>(), src.data<float>(), ids.data<int32_t>(), out.data<float>(), d.n, d.f, keyed_threshold(p),
      1.0f / (1.0f - p), seed);
  check_launch("dropout_keyed");
}

void dropout_keyed_csr(DeviceContext& ctx, const Csr& a, const Tensor& ids, float p, uint64_t seed,
                       const Tensor& values_out) {
  check_dropout_keyed_csr(a, ids, p, values_out);
  if (a.nnz() == 0) return;
  const float scale = 1.0f / (1.0f - p);
  if (a.col.dtype() == DType::i64)
    dropout_keyed_csr_kernel<<<blocks_for(a.rows), kThreads, 0, stream_of(ctx)>>>(
        a.row_ptr.data<int64_t>(), a.col.data<int64_t>(), a.values.data<float>(), ids.data<int32_t>(),
        values_out.data<float>(), a.rows, p, scale, seed);
  else
    dropout_keyed_csr_kernel<<<blocks_for(a.rows), kThreads, 0, stream_of(ctx)>>>(
        a.row_ptr.data<int64_t>(), a.col.data<int32_t>(), a.values.data<float>(), ids.data<int32_t>(),
        values_out.data<float>(), a.rows, p, scale, seed);
  check_launch("dropout_keyed_csr");
}

// ---------------- reductions ----------------
namespace {
__global__ void row_reduce_kernel(const float* x, float* out, int64_t n, int64_t f, bool max) {
  MLSYS_GRID_STRIDE(r, n) {
    float acc = max ? -INFINITY : 0.f;
    for (int64_t j = 0; j < f; ++j) acc = max ? fmaxf(acc, x[r * f + j]) : acc + x[r * f + j];
    out[r] = acc;
  }
}
// out[j] = beta * out[j] + sum (out[j] = sum when beta is 0, so an uninitialized out is fine).
struct StoreColSum {
  float* out;
  float beta;
  __device__ void operator()(int64_t j, const float (&sum)[1]) const {
    out[j] = beta == 0.f ? sum[0] : beta * out[j] + sum[0];
  }
};
__global__ void sum_kernel(const float* x, int64_t n, bool squares, double* partials) {
  double acc = 0;
  MLSYS_GRID_STRIDE(i, n) acc += squares ? static_cast<double>(x[i]) * x[i] : x[i];
  acc = block_sum(acc);
  if (threadIdx.x == 0) partials[blockIdx.x] = acc;
}
// Integer counts: any order gives the same total.
template <class L>
__global__ void count_correct_kernel(const float* logits, const L* labels, const uint8_t* mask, int64_t n, int64_t c,
                                     unsigned long long* partials) {
  unsigned long long correct = 0;
  MLSYS_GRID_STRIDE(r, n) {
    const int64_t y = labels[r];
    if ((mask && !mask[r]) || y < 0 || c == 0) continue;
    int64_t best = 0;
    for (int64_t j = 1; j < c; ++j)
      if (logits[r * c + j] > logits[r * c + best]) best = j;
    correct += best == y;
  }
  correct = block_sum(correct);
  if (threadIdx.x == 0) partials[blockIdx.x] = correct;
}
}  // namespace

void row_sum(DeviceContext& ctx, const Tensor& x, const Tensor& out) {
  require_f32(x, "row_sum", "x");
  require_rows_cols(out, x.rows(), 1, "row_sum", "out");
  if (x.rows() == 0) return;
  row_reduce_kernel<<<blocks_for(x.rows()), kThreads, 0, stream_of(ctx)>>>(x.data<float>(), out.data<float>(), x.rows(),
                                                                           x.row_numel(), false);
  check_launch("row_sum");
}

void row_max(DeviceContext& ctx, const Tensor& x, const Tensor& out) {
  require_f32(x, "row_max", "x");
  require_rows_cols(out, x.rows(), 1, "row_max", "out");
  if (x.rows() == 0) return;
  row_reduce_kernel<<<blocks_for(x.rows()), kThreads, 0, stream_of(ctx)>>>(x.data<float>(), out.data<float>(), x.rows(),
                                                                           x.row_numel(), true);
  check_launch("row_max");
}

void col_sum(DeviceContext& ctx, const Tensor& x, const Tensor& out, float beta) {
  require_f32(x, "col_sum", "x");
  require_f32(out, "col_sum", "out");
  const int64_t n = x.rows(), f = x.row_numel();
  require_numel(out, f, "col_sum", "out");
  column_reduce<float, 1>(ctx, n, f, ColumnOf{x.data<float>(), f}, StoreColSum{out.data<float>(), beta}, "col_sum");
}

static double reduce_all(DeviceContext& ctx, const Tensor& x, bool squares, const char* name) {
  require_f32(x, name, "x");
  if (x.numel() == 0) return 0.0;
  BlockPartials<double> sums(ctx, reduce_blocks_for(x.numel()));
  sum_kernel<<<sums.blocks(), kThreads, 0, stream_of(ctx)>>>(x.data<float>(), x.numel(), squares, sums.ptr());
  check_launch(name);
  return sums.total()[0];
}

double sum_all(DeviceContext& ctx, const Tensor& x) { return reduce_all(ctx, x, false, "sum_all"); }
double sum_squares(DeviceContext& ctx, const Tensor& x) { return reduce_all(ctx, x, true, "sum_squares"); }

int64_t count_correct(DeviceContext& ctx, const Tensor& logits, const Tensor& labels, const Tensor& mask) {
  require_f32(logits, "count_correct", "logits");
  require_index(labels, "count_correct", "labels");
  const int64_t n = logits.rows(), c = logits.row_numel();
  require_numel(labels, n, "count_correct", "labels");
  if (mask.defined()) require_numel(mask, n, "count_correct", "mask");
  if (n == 0) return 0;
  BlockPartials<unsigned long long> counts(ctx, reduce_blocks_for(n));
  with_index(labels, [&](const auto* l) {
    count_correct_kernel<<<counts.blocks(), kThreads, 0, stream_of(ctx)>>>(
        logits.data<float>(), l, mask.defined() ? mask.data<uint8_t>() : nullptr, n, c, counts.ptr());
  });
  check_launch("count_correct");
  return static_cast<int64_t>(counts.total()[0]);
}

// ---------------- optimizers ----------------
namespace {
__global__ void sgd_kernel(float* p, const float* g, float* b, int64_t n, float lr, float momentum, float wd,
                           bool nesterov) {
  MLSYS_GRID_STRIDE(i, n) {
    float gi = g[i] + wd * p[i];
    if (b) {
      b[i] = momentum * b[i] + gi;
      gi = nesterov ? gi + momentum * b[i] : b[i];
    }
    p[i] -= lr * gi;
  }
}
__global__ void adam_kernel(float* p, const float* g, float* m, float* v, int64_t n, AdamParams a, float step_size,
                            float inv_sqrt_bc2) {
  MLSYS_GRID_STRIDE(i, n) {
    float gi = g[i];
    if (a.decoupled) p[i] -= a.lr * a.weight_decay * p[i];
    else gi += a.weight_decay * p[i];
    m[i] = a.beta1 * m[i] + (1.f - a.beta1) * gi;
    v[i] = a.beta2 * v[i] + (1.f - a.beta2) * gi * gi;
    p[i] -= step_size * m[i] / (sqrtf(v[i]) * inv_sqrt_bc2 + a.eps);
  }
}
}  // namespace

void sgd_step(DeviceContext& ctx, const Tensor& param, const Tensor& grad, const Tensor& buf, float lr, float momentum,
              float wd, bool nesterov) {
  require_f32(param, "sgd_step", "param");
  require_same_numel(param, grad, "sgd_step");
  if (momentum != 0.f) require_same_numel(param, buf, "sgd_step");
  if (param.numel() == 0) return;
  sgd_kernel<<<blocks_for(param.numel()), kThreads, 0, stream_of(ctx)>>>(
      param.data<float>(), grad.data<float>(), momentum != 0.f ? buf.data<float>() : nullptr, param.numel(), lr, momentum,
      wd, nesterov);
  check_launch("sgd_step");
}

void adam_step(DeviceContext& ctx, const Tensor& param, const Tensor& grad, const Tensor& m, const Tensor& v,
               const AdamParams& a) {
  require_f32(param, "adam_step", "param");
  require_same_numel(param, grad, "adam_step");
  require_same_numel(param, m, "adam_step");
  require_same_numel(param, v, "adam_step");
  if (a.step < 1) throw Error("kernels::adam_step: step must be >= 1");
  if (param.numel() == 0) return;
  const float bc1 = 1.f - std::pow(a.beta1, static_cast<float>(a.step));
  const float bc2 = 1.f - std::pow(a.beta2, static_cast<float>(a.step));
  adam_kernel<<<blocks_for(param.numel()), kThreads, 0, stream_of(ctx)>>>(param.data<float>(), grad.data<float>(),
                                                                          m.data<float>(), v.data<float>(), param.numel(),
                                                                          a, a.lr / bc1, 1.f / std::sqrt(bc2));
  check_launch("adam_step");
}

}  // namespace mlsys::kernels::cuda
