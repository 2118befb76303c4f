// conv2d (im2col + cuBLAS per image) and pooling on CUDA, NCHW.
#include "core/kernels/cuda/cuda_common.cuh"

namespace mlsys::kernels::cuda {

namespace {
struct Dims {
  int64_t n, c, h, w, o, kh, kw, oh, ow;
  int sh, sw, ph, pw;
};

__global__ void im2col_kernel(const float* x, float* col, Dims d) {
  const int64_t p = d.oh * d.ow;
  MLSYS_GRID_STRIDE(i, d.c * d.kh * d.kw * p) {
    const int64_t q = i % p, row = i / p;
    const int64_t j = row % d.kw, ki = (row / d.kw) % d.kh, c = row / (d.kw * d.kh);
    const int64_t iy = (q / d.ow) * d.sh - d.ph + ki, ix = (q % d.ow) * d.sw - d.pw + j;
    col[i] = (iy >= 0 && iy < d.h && ix >= 0 && ix < d.w) ? x[(c * d.h + iy) * d.w + ix] : 0.f;
  }
}
__global__ void col2im_kernel(const float* col, float* x, Dims d) {
  const int64_t p = d.oh * d.ow;
  MLSYS_GRID_STRIDE(i, d.c * d.kh * d.kw * p) {
    const int64_t q = i % p, row = i / p;
    const int64_t j = row % d.kw, ki = (row / d.kw) % d.kh, c = row / (d.kw * d.kh);
    const int64_t iy = (q / d.ow) * d.sh - d.ph + ki, ix = (q % d.ow) * d.sw - d.pw + j;
    if (iy >= 0 && iy < d.h && ix >= 0 && ix < d.w) atomicAdd(x + (c * d.h + iy) * d.w + ix, col[i]);
  }
}
__global__ void bias_kernel(float* out, const float* b, int64_t o, int64_t p, int64_t total) {
  MLSYS_GRID_STRIDE(i, total) out[i] += b[(i / p) % o];
}
// The bias gradient in two deterministic passes: sums[k * o + oc] = the sum of grad_out[k, oc, :] (a
// block per image and channel), then gb[oc] += the column sums of sums [n, o] (column_reduce).
__global__ void plane_sum_kernel(const float* g, int64_t planes, int64_t p, float* sums) {
  for (int64_t s = blockIdx.x; s < planes; s += gridDim.x) {
    float acc = 0.f;
    for (int64_t q = threadIdx.x; q < p; q += blockDim.x) acc += g[s * p + q];
    acc = block_sum(acc);
    if (threadIdx.x == 0) sums[s] = acc;
  }
}
struct AddTo {
  float* out;
  __device__ void operator()(int64_t j, const float (&sum)[1]) const { out[j] += sum[0]; }
};
void bias_grad(DeviceContext& ctx, const float* g, float* gb, const Dims& d) {
  const int64_t planes = d.n * d.o, p = d.oh * d.ow;
  DeviceContext::Scratch sums(ctx, static_cast<size_t>(planes) * sizeof(float));
  plane_sum_kernel<<<static_cast<unsigned>(std::min(planes, kMaxGridX)), kThreads, 0, stream_of(ctx)>>>(g, planes, p,
                                                                                                       sums.as<float>());
  column_reduce<float, 1>(ctx, d.n, d.o, ColumnOf{sums.as<float>(), d.o}, AddTo{gb}, "conv2d_backward");
}

Dims dims_of(const Tensor& x, const Tensor& w, const Conv2dParams& p) {
  Shape os = conv2d_output_shape(x.shape(), w.shape(), p);
  return {x.dim(0), x.dim(1), x.dim(2), x.dim(3), w.dim(0), w.dim(2), w.dim(3), os[2], os[3],
          p.stride_h, p.stride_w, p.pad_h, p.pad_w};
}

void sgemm(DeviceContext& ctx, bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda,
           const float* b, int64_t ldb, float beta, float* c) {
  // Row-major C[m,n] = op(A) op(B) via column-major C^T = op(B)^T op(A)^T.
  const float alpha = 1.f;
  if (cublasSgemm(blas_of(ctx), tb ? CUBLAS_OP_T : CUBLAS_OP_N, ta ? CUBLAS_OP_T : CUBLAS_OP_N, static_cast<int>(n),
                  static_cast<int>(m), static_cast<int>(k), &alpha, b, static_cast<int>(ldb), a, static_cast<int>(lda), &beta,
                  c, static_cast<int>(n)) != CUBLAS_STATUS_SUCCESS)
    throw Error("cublasSgemm failed in conv2d");
}
}  // namespace

void conv2d(DeviceContext& ctx, const Tensor& x, const Tensor& w, const Tensor& bias, const Tensor& out,
            const Conv2dParams& p) {
  require_f32(x, "conv2d", "x");
  require_f32(w, "conv2d", "w");
  const Dims d = dims_of(x, w, p);
  check_shape(out, Shape{d.n, d.o, d.oh, d.ow}, "kernels::conv2d out");
  if (out.numel() == 0) return;
  const int64_t ckk = d.c * d.kh * d.kw, pp = d.oh * d.ow;
  DeviceContext::Scratch col(ctx, static_cast<size_t>(ckk * pp) * sizeof(float));
  for (int64_t n = 0; n < d.n; ++n) {
    im2col_kernel<<<blocks_for(ckk * pp), kThreads, 0, stream_of(ctx)>>>(x.data<float>() + n * d.c * d.h * d.w,
                                                                         col.as<float>(), d);
    sgemm(ctx, false, false, d.o, pp, ckk, w.data<float>(), ckk, col.as<float>(), pp, 0.f, out.data<float>() + n * d.o * pp);
  }
  if (bias.defined()) {
    require_numel(bias, d.o, "conv2d", "bias");
    bias_kernel<<<blocks_for(out.numel()), kThreads, 0, stream_of(ctx)>>>(out.data<float>(), bias.data<float>(), d.o, pp,
                                                                          out.numel());
  }
  check_launch("conv2d");
}

void conv2d_backward(DeviceContext& ctx, const Tensor& x, const Tensor& w, const Tensor& go, const Tensor& gx,
                     const Tensor& gw, const Tensor& gb, const Conv2dParams& p) {
  const Dims d = dims_of(x, w, p);
  check_shape(go, Shape{d.n, d.o, d.oh, d.ow}, "kernels::conv2d_backward grad_out");
  if (gx.defined()) {
    check_shape(gx, x.shape(), "kernels::conv2d_backward grad_x");
    gx.zero_();
  }
  if (gw.defined()) check_shape(gw, w.shape(), "kernels::conv2d_backward grad_w");
  if (gb.defined()) require_numel(gb, d.o, "conv2d_backward", "grad_b");
  const int64_t ckk = d.c * d.kh * d.kw, pp = d.oh * d.ow;
  if (go.numel() == 0 || ckk == 0) return;
  DeviceContext::Scratch col(ctx, static_cast<size_t>(ckk * pp) * sizeof(float));
  for (int64_t n = 0; n < d.n; ++n) {
    const float* g = go.data<float>() + n * d.o * pp;
    if (gw.defined()) {
      im2col_kernel<<<blocks_for(ckk * pp), kThreads, 0, stream_of(ctx)>>>(x.data<float>() + n * d.c * d.h * d.w,
                                                                           col.as<float>(), d);
      sgemm(ctx, false, true, d.o, ckk, pp, g, pp, col.as<float>(), pp, 1.f, gw.data<float>());
    }
    if (gx.defined()) {
      sgemm(ctx, true, false, ckk, pp, d.o, w.data<float>(), ckk, g, pp, 0.f, col.as<float>());
      col2im_kernel<<<blocks_for(ckk * pp), kThreads, 0, stream_of(ctx)>>>(col.as<float>(),
                                                                           gx.data<float>() + n * d.c * d.h * d.w, d);
    }
  }
  if (gb.defined()) bias_grad(ctx, go.data<float>(), gb.data<float>(), d);
  check_launch("conv2d_backward");
}

namespace {
struct PDims {
  int64_t nc, h, w, oh, ow;
  Pool2dParams p;
};
PDims pdims(const Tensor& x, const Tensor& out, const Pool2dParams& p, const char* what) {
  Shape os = pool2d_output_shape(x.shape(), p);
  check_shape(out, os, what);
  return {x.dim(0) * x.dim(1), x.dim(2), x.dim(3), os[2], os[3], p};
}
__device__ void window(const PDims& d, int64_t oy, int64_t ox, int64_t& y0, int64_t& y1, int64_t& x0, int64_t& x1) {
  y0 = max(oy * d.p.stride_h - d.p.pad_h, int64_t{0});
  y1 = min(oy * d.p.stride_h - d.p.pad_h + d.p.kernel_h, d.h);
  x0 = max(ox * d.p.stride_w - d.p.pad_w, int64_t{0});
  x1 = min(ox * d.p.stride_w - d.p.pad_w + d.p.kernel_w, d.w);
}
__global__ void max_pool_kernel(const float* x, float* out, int32_t* arg, PDims d) {
  MLSYS_GRID_STRIDE(i, d.nc * d.oh * d.ow) {
    const int64_t c = i / (d.oh * d.ow), oy = (i / d.ow) % d.oh, ox = i % d.ow;
    int64_t y0, y1, x0, x1;
    window(d, oy, ox, y0, y1, x0, x1);
    float best = 0.f;
    int32_t at = -1;
    for (int64_t iy = y0; iy < y1; ++iy)
      for (int64_t ix = x0; ix < x1; ++ix) {
        const float v = x[(c * d.h + iy) * d.w + ix];
        if (at < 0 || v > best) best = v, at = static_cast<int32_t>(iy * d.w + ix);
      }
    out[i] = best;
    arg[i] = at;
  }
}
__global__ void max_pool_bw_kernel(const float* g, const int32_t* arg, float* gx, PDims d) {
  MLSYS_GRID_STRIDE(i, d.nc * d.oh * d.ow) {
    if (arg[i] >= 0) atomicAdd(gx + (i / (d.oh * d.ow)) * d.h * d.w + arg[i], g[i]);
  }
}
__global__ void avg_pool_kernel(const float* x, float* out, PDims d) {
  MLSYS_GRID_STRIDE(i, d.nc * d.oh * d.ow) {
    const int64_t c = i / (d.oh * d.ow), oy = (i / d.ow) % d.oh, ox = i % d.ow;
    int64_t y0, y1, x0, x1;
    window(d, oy, ox, y0, y1, x0, x1);
    float s = 0.f;
    for (int64_t iy = y0; iy < y1; ++iy)
      for (int64_t ix = x0; ix < x1; ++ix) s += x[(c * d.h + iy) * d.w + ix];
    const int64_t k = max(int64_t{0}, y1 - y0) * max(int64_t{0}, x1 - x0);
    out[i] = k ? s / static_cast<float>(k) : 0.f;
  }
}
__global__ void avg_pool_bw_kernel(const float* g, float* gx, PDims d) {
  MLSYS_GRID_STRIDE(i, d.nc * d.oh * d.ow) {
    const int64_t c = i / (d.oh * d.ow), oy = (i / d.ow) % d.oh, ox = i % d.ow;
    int64_t y0, y1, x0, x1;
    window(d, oy, ox, y0, y1, x0, x1);
    const int64_t k = max(int64_t{0}, y1 - y0) * max(int64_t{0}, x1 - x0);
    if (!k) continue;
    for (int64_t iy = y0; iy < y1; ++iy)
      for (int64_t ix = x0; ix < x1; ++ix) atomicAdd(gx + (c * d.h + iy) * d.w + ix, g[i] / static_cast<float>(k));
  }
}
}  // namespace

void max_pool2d(DeviceContext& ctx, const Tensor& x, const Tensor& out, const Tensor& argmax, const Pool2dParams& p) {
  require_f32(x, "max_pool2d", "x");
  const PDims d = pdims(x, out, p, "kernels::max_pool2d out");
  if (!argmax.defined() || argmax.dtype() != DType::i32) throw Error("kernels::max_pool2d: argmax must be an i32 tensor");
  require_numel(argmax, out.numel(), "max_pool2d", "argmax");
  if (out.numel() == 0) return;
  max_pool_kernel<<<blocks_for(out.numel()), kThreads, 0, stream_of(ctx)>>>(x.data<float>(), out.data<float>(),
                                                                            argmax.data<int32_t>(), d);
  check_launch("max_pool2d");
}

void max_pool2d_backward(DeviceContext& ctx, const Tensor& go, const Tensor& argmax, const Tensor& gx,
                         const Pool2dParams& p) {
  const PDims d = pdims(gx, go, p, "kernels::max_pool2d_backward grad_out");
  require_numel(argmax, go.numel(), "max_pool2d_backward", "argmax");
  gx.zero_();
  if (go.numel() == 0) return;
  max_pool_bw_kernel<<<blocks_for(go.numel()), kThreads, 0, stream_of(ctx)>>>(go.data<float>(), argmax.data<int32_t>(),
                                                                               gx.data<float>(), d);
  check_launch("max_pool2d_backward");
}

void avg_pool2d(DeviceContext& ctx, const Tensor& x, const Tensor& out, const Pool2dParams& p) {
  require_f32(x, "avg_pool2d", "x");
  const PDims d = pdims(x, out, p, "kernels::avg_pool2d out");
  if (out.numel() == 0) return;
  avg_pool_kernel<<<blocks_for(out.numel()), kThreads, 0, stream_of(ctx)>>>(x.data<float>(), out.data<float>(), d);
  check_launch("avg_pool2d");
}

void avg_pool2d_backward(DeviceContext& ctx, const Tensor& go, const Tensor& gx, const Pool2dParams& p) {
  const PDims d = pdims(gx, go, p, "kernels::avg_pool2d_backward grad_out");
  gx.zero_();
  if (go.numel() == 0) return;
  avg_pool_bw_kernel<<<blocks_for(go.numel()), kThreads, 0, stream_of(ctx)>>>(go.data<float>(), gx.data<float>(), d);
  check_launch("avg_pool2d_backward");
}

}  // namespace mlsys::kernels::cuda
