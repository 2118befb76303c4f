// The public kernels: check that every tensor is on the context's device, then call the kernel
// table of the context's backend (the host's, or the one libmlsys_cuda.so registered).
#include "core/kernels/kernel_table.hpp"
#include "core/tensor/device_backend.hpp"

namespace mlsys::kernels {

namespace {
void check_one(const DeviceContext& ctx, const char* fn, const Tensor& t) {
  if (t.defined() && t.numel() > 0 && t.device() != ctx.device())
    throw Error(std::string("kernels::") + fn + ": tensor " + t.str() + " is not on the context's device " +
                ctx.device().str() + " (copy it with .to(ctx) first)");
}
void check_one(const DeviceContext& ctx, const char* fn, const Csr& a) {
  check_one(ctx, fn, a.row_ptr);
  check_one(ctx, fn, a.col);
  check_one(ctx, fn, a.values);
}
template <class T>
void check_one(const DeviceContext&, const char*, const T&) {}

template <class... Args>
void check_devices(const DeviceContext& ctx, const char* fn, const Args&... args) {
  (check_one(ctx, fn, args), ...);
}
}  // namespace

#define MLSYS_KERNEL(fn, ...)           \
  check_devices(ctx, #fn, __VA_ARGS__); \
  return ctx.backend().kernels().fn(ctx, __VA_ARGS__)

void gemm(DeviceContext& ctx, const Tensor& a, bool ta, const Tensor& b, bool tb, const Tensor& c, float alpha,
          float beta) {
  MLSYS_KERNEL(gemm, a, ta, b, tb, c, alpha, beta);
}
void spmm(DeviceContext& ctx, const Csr& a, const Tensor& x, const Tensor& out, const Tensor& ev, float beta) {
  MLSYS_KERNEL(spmm, a, x, out, ev, beta);
}
void spmm_t(DeviceContext& ctx, const Csr& a, const Tensor& x, const Tensor& out, const Tensor& ev, float beta) {
  MLSYS_KERNEL(spmm_t, a, x, out, ev, beta);
}
void sddmm(DeviceContext& ctx, const Csr& a, const Tensor& u, const Tensor& v, const Tensor& out) {
  MLSYS_KERNEL(sddmm, a, u, v, out);
}
void edge_add(DeviceContext& ctx, const Csr& a, const Tensor& u, const Tensor& v, const Tensor& out) {
  MLSYS_KERNEL(edge_add, a, u, v, out);
}
void edge_add_backward(DeviceContext& ctx, const Csr& a, const Tensor& g, const Tensor& gu, const Tensor& gv) {
  MLSYS_KERNEL(edge_add_backward, a, g, gu, gv);
}
void edge_softmax(DeviceContext& ctx, const Csr& a, const Tensor& s, const Tensor& out) {
  MLSYS_KERNEL(edge_softmax, a, s, out);
}
void edge_softmax_backward(DeviceContext& ctx, const Csr& a, const Tensor& y, const Tensor& gy, const Tensor& gs) {
  MLSYS_KERNEL(edge_softmax_backward, a, y, gy, gs);
}
void gather_rows(DeviceContext& ctx, const Tensor& src, const Tensor& idx, const Tensor& out) {
  MLSYS_KERNEL(gather_rows, src, idx, out);
}
void scatter_add_rows(DeviceContext& ctx, const Tensor& src, const Tensor& idx, const Tensor& out) {
  MLSYS_KERNEL(scatter_add_rows, src, idx, out);
}
void fill(DeviceContext& ctx, const Tensor& out, float value) { MLSYS_KERNEL(fill, out, value); }
void add(DeviceContext& ctx, const Tensor& a, const Tensor& b, const Tensor& out) { MLSYS_KERNEL(add, a, b, out); }
void mul(DeviceContext& ctx, const Tensor& a, const Tensor& b, const Tensor& out) { MLSYS_KERNEL(mul, a, b, out); }
void scale(DeviceContext& ctx, const Tensor& x, float alpha, const Tensor& out) { MLSYS_KERNEL(scale, x, alpha, out); }
void axpy(DeviceContext& ctx, float alpha, const Tensor& x, const Tensor& y) { MLSYS_KERNEL(axpy, alpha, x, y); }
void add_row_vector(DeviceContext& ctx, const Tensor& x, const Tensor& bias, const Tensor& out) {
  MLSYS_KERNEL(add_row_vector, x, bias, out);
}
void scale_rows(DeviceContext& ctx, const Tensor& x, const Tensor& s, const Tensor& out) {
  MLSYS_KERNEL(scale_rows, x, s, out);
}
void relu(DeviceContext& ctx, const Tensor& x, const Tensor& out) { MLSYS_KERNEL(relu, x, out); }
void relu_backward(DeviceContext& ctx, const Tensor& x, const Tensor& g, const Tensor& gi) {
  MLSYS_KERNEL(relu_backward, x, g, gi);
}
void leaky_relu(DeviceContext& ctx, const Tensor& x, const Tensor& out, float slope) {
  MLSYS_KERNEL(leaky_relu, x, out, slope);
}
void leaky_relu_backward(DeviceContext& ctx, const Tensor& x, const Tensor& g, const Tensor& gi, float slope) {
  MLSYS_KERNEL(leaky_relu_backward, x, g, gi, slope);
}
void elu(DeviceContext& ctx, const Tensor& x, const Tensor& out, float alpha) { MLSYS_KERNEL(elu, x, out, alpha); }
void elu_backward(DeviceContext& ctx, const Tensor& x, const Tensor& g, const Tensor& gi, float alpha) {
  MLSYS_KERNEL(elu_backward, x, g, gi, alpha);
}
void dropout(DeviceContext& ctx, const Tensor& x, const Tensor& out, const Tensor& mask, float p, uint64_t seed) {
  MLSYS_KERNEL(dropout, x, out, mask, p, seed);
}
void dropout_backward(DeviceContext& ctx, const Tensor& g, const Tensor& mask, float p, const Tensor& gi) {
  MLSYS_KERNEL(dropout_backward, g, mask, p, gi);
}
void dropout_keyed(DeviceContext& ctx, const Tensor& x, const Tensor& src, const Tensor& ids, float p, uint64_t seed,
                   const Tensor& out) {
  MLSYS_KERNEL(dropout_keyed, x, src, ids, p, seed, out);
}
void dropout_keyed_csr(DeviceContext& ctx, const Csr& a, const Tensor& ids, float p, uint64_t seed,
                       const Tensor& values_out) {
  MLSYS_KERNEL(dropout_keyed_csr, a, ids, p, seed, values_out);
}
void row_sum(DeviceContext& ctx, const Tensor& x, const Tensor& out) { MLSYS_KERNEL(row_sum, x, out); }
void row_max(DeviceContext& ctx, const Tensor& x, const Tensor& out) { MLSYS_KERNEL(row_max, x, out); }
void col_sum(DeviceContext& ctx, const Tensor& x, const Tensor& out, float beta) { MLSYS_KERNEL(col_sum, x, out, beta); }
double sum_all(DeviceContext& ctx, const Tensor& x) { MLSYS_KERNEL(sum_all, x); }
double sum_squares(DeviceContext& ctx, const Tensor& x) { MLSYS_KERNEL(sum_squares, x); }
int64_t count_correct(DeviceContext& ctx, const Tensor& logits, const Tensor& labels, const Tensor& mask) {
  MLSYS_KERNEL(count_correct, logits, labels, mask);
}
void log_softmax(DeviceContext& ctx, const Tensor& x, const Tensor& out) { MLSYS_KERNEL(log_softmax, x, out); }
void log_softmax_backward(DeviceContext& ctx, const Tensor& y, const Tensor& gy, const Tensor& gx) {
  MLSYS_KERNEL(log_softmax_backward, y, gy, gx);
}
float nll_loss(DeviceContext& ctx, const Tensor& logp, const Tensor& labels, const Tensor& mask, const Tensor& g) {
  MLSYS_KERNEL(nll_loss, logp, labels, mask, g);
}
float cross_entropy(DeviceContext& ctx, const Tensor& logits, const Tensor& labels, const Tensor& mask,
                    const Tensor& g) {
  MLSYS_KERNEL(cross_entropy, logits, labels, mask, g);
}
float cosine_similarity_loss(DeviceContext& ctx, const Tensor& a, const Tensor& b, const Tensor& ga, const Tensor& gb,
                             float eps, const Tensor& w) {
  MLSYS_KERNEL(cosine_similarity_loss, a, b, ga, gb, eps, w);
}
void layer_norm(DeviceContext& ctx, const Tensor& x, const Tensor& gamma, const Tensor& beta, float eps,
                const Tensor& y, const Tensor& mean, const Tensor& rstd) {
  MLSYS_KERNEL(layer_norm, x, gamma, beta, eps, y, mean, rstd);
}
void layer_norm_backward(DeviceContext& ctx, const Tensor& x, const Tensor& gamma, const Tensor& mean,
                         const Tensor& rstd, const Tensor& gy, const Tensor& gx, const Tensor& gg, const Tensor& gb) {
  MLSYS_KERNEL(layer_norm_backward, x, gamma, mean, rstd, gy, gx, gg, gb);
}
void l2_normalize_rows(DeviceContext& ctx, const Tensor& x, const Tensor& y, const Tensor& norm, float eps) {
  MLSYS_KERNEL(l2_normalize_rows, x, y, norm, eps);
}
void l2_normalize_rows_backward(DeviceContext& ctx, const Tensor& y, const Tensor& norm, const Tensor& gy,
                                const Tensor& gx, float eps) {
  MLSYS_KERNEL(l2_normalize_rows_backward, y, norm, gy, gx, eps);
}
void conv2d(DeviceContext& ctx, const Tensor& x, const Tensor& w, const Tensor& bias, const Tensor& out,
            const Conv2dParams& p) {
  MLSYS_KERNEL(conv2d, x, w, bias, out, p);
}
void conv2d_backward(DeviceContext& ctx, const Tensor& x, const Tensor& w, const Tensor& go, const Tensor& gx,
                     const Tensor& gw, const Tensor& gb, const Conv2dParams& p) {
  MLSYS_KERNEL(conv2d_backward, x, w, go, gx, gw, gb, p);
}
void max_pool2d(DeviceContext& ctx, const Tensor& x, const Tensor& out, const Tensor& argmax, const Pool2dParams& p) {
  MLSYS_KERNEL(max_pool2d, x, out, argmax, p);
}
void max_pool2d_backward(DeviceContext& ctx, const Tensor& go, const Tensor& argmax, const Tensor& gx,
                         const Pool2dParams& p) {
  MLSYS_KERNEL(max_pool2d_backward, go, argmax, gx, p);
}
void avg_pool2d(DeviceContext& ctx, const Tensor& x, const Tensor& out, const Pool2dParams& p) {
  MLSYS_KERNEL(avg_pool2d, x, out, p);
}
void avg_pool2d_backward(DeviceContext& ctx, const Tensor& go, const Tensor& gx, const Pool2dParams& p) {
  MLSYS_KERNEL(avg_pool2d_backward, go, gx, p);
}
void sgd_step(DeviceContext& ctx, const Tensor& param, const Tensor& grad, const Tensor& buf, float lr, float momentum,
              float wd, bool nesterov) {
  MLSYS_KERNEL(sgd_step, param, grad, buf, lr, momentum, wd, nesterov);
}
void adam_step(DeviceContext& ctx, const Tensor& param, const Tensor& grad, const Tensor& m, const Tensor& v,
               const AdamParams& p) {
  MLSYS_KERNEL(adam_step, param, grad, m, v, p);
}

Csr for_spmm_t(DeviceContext& ctx, const Csr& a) { return ctx.device().is_cpu() ? a : a.with_transpose().to(ctx); }

}  // namespace mlsys::kernels
