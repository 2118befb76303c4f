// conv2d (im2col + OpenBLAS GEMM) and 2-D max/avg pooling on the host, NCHW.
#include <cblas.h>
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <utility>

#include "core/kernels/cpu/cpu_kernels.hpp"
#include "core/kernels/kernel_checks.hpp"

namespace mlsys::kernels::cpu {

using namespace detail;

namespace {
struct ConvDims {
  int64_t n, c, h, w, o, kh, kw, oh, ow;
  int64_t ckk() const { return c * kh * kw; }
  int64_t p() const { return oh * ow; }
};

ConvDims conv_dims(const Tensor& x, const Tensor& w, const Conv2dParams& p) {
  Shape os = conv2d_output_shape(x.shape(), w.shape(), p);
  return {x.dim(0), x.dim(1), x.dim(2), x.dim(3), w.dim(0), w.dim(2), w.dim(3), os[2], os[3]};
}

// The output columns ox whose input column ox*s - pad + j lies inside [0, w): [lo, hi).
std::pair<int64_t, int64_t> inside_columns(int64_t j, int64_t s, int64_t pad, int64_t w, int64_t ow) {
  const int64_t first = pad - j, last = w - 1 + pad - j;  // ox * s must lie in [first, last]
  if (last < 0) return {0, 0};
  const int64_t lo = first <= 0 ? 0 : std::min(ow, (first + s - 1) / s);
  return {lo, std::max(lo, std::min(ow, last / s + 1))};
}

// col[(c*kh + i)*kw + j, oy*ow + ox] = x[c, oy*s - pad + i, ox*s - pad + j] (0 outside). Each
// output row copies its in-bounds span (one memcpy for stride 1) and zero-fills the padding,
// instead of testing the bounds of every element: im2col was a fifth of a small CNN's training.
void im2col(const float* x, float* col, const ConvDims& d, const Conv2dParams& p) {
  for (int64_t c = 0; c < d.c; ++c)
    for (int64_t i = 0; i < d.kh; ++i)
      for (int64_t j = 0; j < d.kw; ++j) {
        float* dst = col + ((c * d.kh + i) * d.kw + j) * d.p();
        const auto [lo, hi] = inside_columns(j, p.stride_w, p.pad_w, d.w, d.ow);
        for (int64_t oy = 0; oy < d.oh; ++oy) {
          float* out = dst + oy * d.ow;
          const int64_t iy = oy * p.stride_h - p.pad_h + i;
          if (iy < 0 || iy >= d.h) {
            std::fill(out, out + d.ow, 0.f);
            continue;
          }
          const float* row = x + (c * d.h + iy) * d.w;
          const int64_t shift = j - p.pad_w;  // input column of ox: ox * s + shift
          std::fill(out, out + lo, 0.f);
          if (p.stride_w == 1) std::memcpy(out + lo, row + lo + shift, static_cast<size_t>(hi - lo) * sizeof(float));
          else
            for (int64_t ox = lo; ox < hi; ++ox) out[ox] = row[ox * p.stride_w + shift];
          std::fill(out + hi, out + d.ow, 0.f);
        }
      }
}

void col2im_add(const float* col, float* x, const ConvDims& d, const Conv2dParams& p) {
  for (int64_t c = 0; c < d.c; ++c)
    for (int64_t i = 0; i < d.kh; ++i)
      for (int64_t j = 0; j < d.kw; ++j) {
        const float* src = col + ((c * d.kh + i) * d.kw + j) * d.p();
        for (int64_t oy = 0; oy < d.oh; ++oy) {
          const int64_t iy = oy * p.stride_h - p.pad_h + i;
          if (iy < 0 || iy >= d.h) continue;
          for (int64_t ox = 0; ox < d.ow; ++ox) {
            const int64_t ix = ox * p.stride_w - p.pad_w + j;
            if (ix >= 0 && ix < d.w) x[(c * d.h + iy) * d.w + ix] += src[oy * d.ow + ox];
          }
        }
      }
}

int I(int64_t v) { return static_cast<int>(v); }
}  // namespace

void conv2d(DeviceContext& ctx, const Tensor& x, const Tensor& w, const Tensor& bias, const Tensor& out,
            const Conv2dParams& p) {
  require_f32(x, "conv2d", "x");
  require_f32(w, "conv2d", "w");
  const ConvDims d = conv_dims(x, w, p);
  check_shape(out, Shape{d.n, d.o, d.oh, d.ow}, "kernels::conv2d out");
  if (bias.defined()) require_numel(bias, d.o, "conv2d", "bias");
  if (out.numel() == 0) return;
  DeviceContext::Scratch col(ctx, static_cast<size_t>(d.ckk() * d.p()) * sizeof(float));
  float* cp = col.as<float>();
  for (int64_t n = 0; n < d.n; ++n) {
    im2col(x.data<float>() + n * d.c * d.h * d.w, cp, d, p);
    float* o = out.data<float>() + n * d.o * d.p();
    if (d.ckk() == 0) std::fill(o, o + d.o * d.p(), 0.f);
    else
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, I(d.o), I(d.p()), I(d.ckk()), 1.f, w.data<float>(),
                  I(d.ckk()), cp, I(d.p()), 0.f, o, I(d.p()));
    if (bias.defined())
      for (int64_t oc = 0; oc < d.o; ++oc) {
        const float b = bias.data<float>()[oc];
        for (int64_t q = 0; q < d.p(); ++q) o[oc * d.p() + q] += b;
      }
  }
}

void conv2d_backward(DeviceContext& ctx, const Tensor& x, const Tensor& w, const Tensor& go, const Tensor& gx,
                     const Tensor& gw, const Tensor& gb, const Conv2dParams& p) {
  require_f32(x, "conv2d_backward", "x");
  require_f32(w, "conv2d_backward", "w");
  const ConvDims d = conv_dims(x, w, p);
  check_shape(go, Shape{d.n, d.o, d.oh, d.ow}, "kernels::conv2d_backward grad_out");
  if (gx.defined()) check_shape(gx, x.shape(), "kernels::conv2d_backward grad_x");
  if (gw.defined()) check_shape(gw, w.shape(), "kernels::conv2d_backward grad_w");
  if (gb.defined()) require_numel(gb, d.o, "conv2d_backward", "grad_b");
  if (gx.defined()) gx.zero_();
  if (go.numel() == 0 || d.ckk() == 0) return;
  DeviceContext::Scratch col(ctx, static_cast<size_t>(d.ckk() * d.p()) * sizeof(float));
  float* cp = col.as<float>();
  for (int64_t n = 0; n < d.n; ++n) {
    const float* g = go.data<float>() + n * d.o * d.p();
    if (gw.defined()) {
      im2col(x.data<float>() + n * d.c * d.h * d.w, cp, d, p);
      cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, I(d.o), I(d.ckk()), I(d.p()), 1.f, g, I(d.p()), cp, I(d.p()),
                  1.f, gw.data<float>(), I(d.ckk()));
    }
    if (gb.defined())
      for (int64_t oc = 0; oc < d.o; ++oc) {
        float s = 0.f;
        for (int64_t q = 0; q < d.p(); ++q) s += g[oc * d.p() + q];
        gb.data<float>()[oc] += s;
      }
    if (gx.defined()) {
      cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, I(d.ckk()), I(d.p()), I(d.o), 1.f, w.data<float>(),
                  I(d.ckk()), g, I(d.p()), 0.f, cp, I(d.p()));
      col2im_add(cp, gx.data<float>() + n * d.c * d.h * d.w, d, p);
    }
  }
}

namespace {
struct PoolDims {
  int64_t nc, h, w, oh, ow;
};
PoolDims pool_dims(const Tensor& x, const Tensor& out, const Pool2dParams& p, const char* fn) {
  require_f32(x, fn, "x");
  Shape os = pool2d_output_shape(x.shape(), p);
  check_shape(out, os, fn);
  return {x.dim(0) * x.dim(1), x.dim(2), x.dim(3), os[2], os[3]};
}
}  // namespace

void max_pool2d(DeviceContext&, const Tensor& x, const Tensor& out, const Tensor& argmax, const Pool2dParams& p) {
  const PoolDims d = pool_dims(x, out, p, "kernels::max_pool2d out");
  if (!argmax.defined() || argmax.dtype() != DType::i32) throw Error("kernels::max_pool2d: argmax must be an i32 tensor");
  require_numel(argmax, out.numel(), "max_pool2d", "argmax");
  const float* xp = x.data<float>();
  float* op = out.data<float>();
  int32_t* ap = argmax.data<int32_t>();
  if (p.kernel_h == 2 && p.kernel_w == 2 && p.stride_h == 2 && p.stride_w == 2 && p.pad_h == 0 && p.pad_w == 0) {
    // The common 2x2 window without padding: four loads and three selects per output, the same
    // first-maximum rule as the general loop (the general loop was a quarter of a small CNN's time).
#pragma omp parallel for schedule(static) if (d.nc * d.oh * d.ow > 16384)
    for (int64_t c = 0; c < d.nc; ++c) {
      const float* img = xp + c * d.h * d.w;
      for (int64_t oy = 0; oy < d.oh; ++oy)
        for (int64_t ox = 0; ox < d.ow; ++ox) {
          const int64_t a = 2 * oy * d.w + 2 * ox;
          int64_t best = a;
          best = img[a + 1] > img[best] ? a + 1 : best;
          best = img[a + d.w] > img[best] ? a + d.w : best;
          best = img[a + d.w + 1] > img[best] ? a + d.w + 1 : best;
          const int64_t o = (c * d.oh + oy) * d.ow + ox;
          op[o] = img[best];
          ap[o] = static_cast<int32_t>(best);
        }
    }
    return;
  }
#pragma omp parallel for schedule(static) if (d.nc * d.oh * d.ow > 16384)
  for (int64_t c = 0; c < d.nc; ++c)
    for (int64_t oy = 0; oy < d.oh; ++oy)
      for (int64_t ox = 0; ox < d.ow; ++ox) {
        float best = -std::numeric_limits<float>::infinity();
        int32_t at = -1;
        for (int64_t i = 0; i < p.kernel_h; ++i) {
          const int64_t iy = oy * p.stride_h - p.pad_h + i;
          if (iy < 0 || iy >= d.h) continue;
          for (int64_t j = 0; j < p.kernel_w; ++j) {
            const int64_t ix = ox * p.stride_w - p.pad_w + j;
            if (ix < 0 || ix >= d.w) continue;
            const float v = xp[(c * d.h + iy) * d.w + ix];
            if (at < 0 || v > best) best = v, at = static_cast<int32_t>(iy * d.w + ix);
          }
        }
        const int64_t o = (c * d.oh + oy) * d.ow + ox;
        op[o] = at < 0 ? 0.f : best;
        ap[o] = at;
      }
}

void max_pool2d_backward(DeviceContext&, const Tensor& go, const Tensor& argmax, const Tensor& gx, const Pool2dParams& p) {
  const PoolDims d = pool_dims(gx, go, p, "kernels::max_pool2d_backward grad_out");
  require_numel(argmax, go.numel(), "max_pool2d_backward", "argmax");
  const float* gp = go.data<float>();
  const int32_t* ap = argmax.data<int32_t>();
  float* xp = gx.data<float>();
#pragma omp parallel for schedule(static) if (d.nc * d.h * d.w > 16384)
  for (int64_t c = 0; c < d.nc; ++c) {
    std::fill(xp + c * d.h * d.w, xp + (c + 1) * d.h * d.w, 0.f);
    for (int64_t q = 0; q < d.oh * d.ow; ++q) {
      const int32_t at = ap[c * d.oh * d.ow + q];
      if (at >= 0) xp[c * d.h * d.w + at] += gp[c * d.oh * d.ow + q];
    }
  }
}

namespace {
// Visits the in-bounds input positions of output (oy, ox); returns how many there were.
template <class Fn>
int64_t for_window(const PoolDims& d, const Pool2dParams& p, int64_t oy, int64_t ox, Fn&& fn) {
  const int64_t y0 = std::max<int64_t>(oy * p.stride_h - p.pad_h, 0), y1 = std::min<int64_t>(oy * p.stride_h - p.pad_h + p.kernel_h, d.h);
  const int64_t x0 = std::max<int64_t>(ox * p.stride_w - p.pad_w, 0), x1 = std::min<int64_t>(ox * p.stride_w - p.pad_w + p.kernel_w, d.w);
  for (int64_t iy = y0; iy < y1; ++iy)
    for (int64_t ix = x0; ix < x1; ++ix) fn(iy * d.w + ix);
  return std::max<int64_t>(0, y1 - y0) * std::max<int64_t>(0, x1 - x0);
}
}  // namespace

void avg_pool2d(DeviceContext&, const Tensor& x, const Tensor& out, const Pool2dParams& p) {
  const PoolDims d = pool_dims(x, out, p, "kernels::avg_pool2d out");
  const float* xp = x.data<float>();
  float* op = out.data<float>();
#pragma omp parallel for schedule(static) if (d.nc * d.oh * d.ow > 16384)
  for (int64_t c = 0; c < d.nc; ++c)
    for (int64_t oy = 0; oy < d.oh; ++oy)
      for (int64_t ox = 0; ox < d.ow; ++ox) {
        float s = 0.f;
        const int64_t k = for_window(d, p, oy, ox, [&](int64_t at) { s += xp[c * d.h * d.w + at]; });
        op[(c * d.oh + oy) * d.ow + ox] = k ? s / static_cast<float>(k) : 0.f;
      }
}

void avg_pool2d_backward(DeviceContext&, const Tensor& go, const Tensor& gx, const Pool2dParams& p) {
  const PoolDims d = pool_dims(gx, go, p, "kernels::avg_pool2d_backward grad_out");
  const float* gp = go.data<float>();
  float* xp = gx.data<float>();
#pragma omp parallel for schedule(static) if (d.nc * d.h * d.w > 16384)
  for (int64_t c = 0; c < d.nc; ++c) {
    std::fill(xp + c * d.h * d.w, xp + (c + 1) * d.h * d.w, 0.f);
    for (int64_t oy = 0; oy < d.oh; ++oy)
      for (int64_t ox = 0; ox < d.ow; ++ox) {
        const int64_t k = for_window(d, p, oy, ox, [](int64_t) {});
        if (!k) continue;
        const float g = gp[(c * d.oh + oy) * d.ow + ox] / static_cast<float>(k);
        for_window(d, p, oy, ox, [&](int64_t at) { xp[c * d.h * d.w + at] += g; });
      }
  }
}

}  // namespace mlsys::kernels::cpu
