#include "dataopt/net/layers.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>

#include "core/util/error.hpp"

namespace mlsys::dataopt {

namespace {

void init_uniform(std::vector<float>& w, int64_t fan_in, Rng& rng) {
  // He-uniform: keeps activations at unit scale through ReLUs.
  const double bound = std::sqrt(6.0 / static_cast<double>(fan_in));
  for (float& x : w) x = static_cast<float>((rng.uniform() * 2 - 1) * bound);
}

void sgemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const float* a, int64_t lda, const float* b, int64_t ldb,
           float beta, float* c, int64_t ldc) {
  cblas_sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans, static_cast<int>(m),
              static_cast<int>(n), static_cast<int>(k), 1.0f, a, static_cast<int>(lda), b, static_cast<int>(ldb), beta, c,
              static_cast<int>(ldc));
}

}  // namespace

Linear::Linear(int64_t in, int64_t out, Rng& rng) : in_(in), out_(out) {
  w_.w.resize(static_cast<size_t>(in * out));
  w_.g.assign(w_.w.size(), 0);
  b_.w.assign(static_cast<size_t>(out), 0);
  b_.g.assign(static_cast<size_t>(out), 0);
  init_uniform(w_.w, in, rng);
}

Matrix Linear::forward(const Matrix& x, bool train) {
  if (x.cols != in_) throw Error("Linear expects " + std::to_string(in_) + " inputs, got " + std::to_string(x.cols));
  Matrix y(x.rows, out_);
  for (int64_t i = 0; i < x.rows; ++i) std::copy(b_.w.begin(), b_.w.end(), y.row(i));
  sgemm(false, false, x.rows, out_, in_, x.v.data(), in_, w_.w.data(), out_, 1.0f, y.v.data(), out_);
  if (train) x_ = x;
  return y;
}

Matrix Linear::backward(const Matrix& g) {
  sgemm(true, false, in_, out_, g.rows, x_.v.data(), in_, g.v.data(), out_, 1.0f, w_.g.data(), out_);
  for (int64_t i = 0; i < g.rows; ++i)
    for (int64_t j = 0; j < out_; ++j) b_.g[static_cast<size_t>(j)] += g.at(i, j);
  if (!need_input_grad_) return {};
  Matrix gx(g.rows, in_);
  sgemm(false, true, g.rows, in_, out_, g.v.data(), out_, w_.w.data(), out_, 0.0f, gx.v.data(), in_);
  return gx;
}

Matrix Relu::forward(const Matrix& x, bool train) {
  Matrix y = x;
  for (float& v : y.v) v = v > 0 ? v : 0;
  if (train) y_ = y;
  return y;
}

Matrix Relu::backward(const Matrix& g) {
  Matrix gx = g;
  // A select, not a branch: the branch on the sign of each activation mispredicted half the time
  // and made this loop 15% of a CNN student's training.
  float* __restrict out = gx.v.data();
  const float* __restrict y = y_.v.data();
  for (size_t i = 0; i < gx.v.size(); ++i) out[i] = y[i] <= 0 ? 0.0f : out[i];
  return gx;
}

Conv3x3::Conv3x3(Geometry in, int out_channels, int stride, Rng& rng) : in_(in), stride_(stride) {
  out_geo_ = {out_channels, (in.h - 1) / stride + 1, (in.w - 1) / stride + 1};
  w_.w.resize(static_cast<size_t>(in.c) * 9 * static_cast<size_t>(out_channels));
  w_.g.assign(w_.w.size(), 0);
  b_.w.assign(static_cast<size_t>(out_channels), 0);
  b_.g.assign(b_.w.size(), 0);
  init_uniform(w_.w, static_cast<int64_t>(in.c) * 9, rng);
}

// Rows: (sample, out_y, out_x); columns: (in_channel, ky, kx).
void Conv3x3::im2col(const Matrix& x, Matrix& col) const {
  const int64_t hw = static_cast<int64_t>(out_geo_.h) * out_geo_.w;
  col.rows = x.rows * hw;
  col.cols = static_cast<int64_t>(in_.c) * 9;
  col.v.resize(static_cast<size_t>(col.rows * col.cols));  // every entry is written below
  for (int64_t s = 0; s < x.rows; ++s) {
    const float* img = x.row(s);
    for (int oy = 0; oy < out_geo_.h; ++oy)
      for (int ox = 0; ox < out_geo_.w; ++ox) {
        float* dst = col.row(s * hw + oy * out_geo_.w + ox);
        for (int c = 0; c < in_.c; ++c)
          for (int ky = 0; ky < 3; ++ky) {
            const int iy = oy * stride_ + ky - 1;
            for (int kx = 0; kx < 3; ++kx) {
              const int ix = ox * stride_ + kx - 1;
              *dst++ = (iy < 0 || iy >= in_.h || ix < 0 || ix >= in_.w) ? 0.0f : img[(c * in_.h + iy) * in_.w + ix];
            }
          }
      }
  }
}

Matrix Conv3x3::forward(const Matrix& x, bool train) {
  if (x.cols != in_.size()) throw Error("Conv3x3 expects " + std::to_string(in_.size()) + " inputs per sample");
  // The column buffer is kept for backward and reused by the next forward (no fresh allocation
  // per batch); an evaluation forward between training steps never precedes a backward.
  Matrix& col = col_;
  im2col(x, col);
  const int64_t hw = static_cast<int64_t>(out_geo_.h) * out_geo_.w, oc = out_geo_.c;
  Matrix out(col.rows, oc);
  sgemm(false, false, col.rows, oc, col.cols, col.v.data(), col.cols, w_.w.data(), oc, 0.0f, out.v.data(), oc);
  Matrix y(x.rows, oc * hw);
  for (int64_t s = 0; s < x.rows; ++s)
    for (int64_t p = 0; p < hw; ++p)
      for (int64_t c = 0; c < oc; ++c) y.at(s, c * hw + p) = out.at(s * hw + p, c) + b_.w[static_cast<size_t>(c)];
  (void)train;
  return y;
}

Matrix Conv3x3::backward(const Matrix& g) {
  const int64_t hw = static_cast<int64_t>(out_geo_.h) * out_geo_.w, oc = out_geo_.c;
  Matrix gout(g.rows * hw, oc);
  for (int64_t s = 0; s < g.rows; ++s)
    for (int64_t c = 0; c < oc; ++c) {
      float bsum = 0;
      for (int64_t p = 0; p < hw; ++p) {
        const float v = g.at(s, c * hw + p);
        gout.at(s * hw + p, c) = v;
        bsum += v;
      }
      b_.g[static_cast<size_t>(c)] += bsum;
    }
  sgemm(true, false, col_.cols, oc, gout.rows, col_.v.data(), col_.cols, gout.v.data(), oc, 1.0f, w_.g.data(), oc);
  if (!need_input_grad_) return {};
  Matrix gcol(gout.rows, col_.cols);
  sgemm(false, true, gout.rows, col_.cols, oc, gout.v.data(), oc, w_.w.data(), oc, 0.0f, gcol.v.data(), col_.cols);
  Matrix gx(g.rows, in_.size());
  for (int64_t s = 0; s < g.rows; ++s) {
    float* dimg = gx.row(s);
    for (int oy = 0; oy < out_geo_.h; ++oy)
      for (int ox = 0; ox < out_geo_.w; ++ox) {
        const float* src = gcol.row(s * hw + oy * out_geo_.w + ox);
        for (int c = 0; c < in_.c; ++c)
          for (int ky = 0; ky < 3; ++ky) {
            const int iy = oy * stride_ + ky - 1;
            for (int kx = 0; kx < 3; ++kx, ++src) {
              const int ix = ox * stride_ + kx - 1;
              if (iy >= 0 && iy < in_.h && ix >= 0 && ix < in_.w) dimg[(c * in_.h + iy) * in_.w + ix] += *src;
            }
          }
      }
  }
  return gx;
}

MaxPool2::MaxPool2(Geometry in) : in_(in), out_geo_{in.c, in.h / 2, in.w / 2} {
  if (out_geo_.h < 1 || out_geo_.w < 1) throw Error("MaxPool2: input " + std::to_string(in.h) + "x" + std::to_string(in.w) + " is too small");
}

Matrix MaxPool2::forward(const Matrix& x, bool train) {
  Matrix y(x.rows, out_geo_.size());
  if (train) argmax_.assign(static_cast<size_t>(x.rows * out_geo_.size()), 0);
  for (int64_t s = 0; s < x.rows; ++s) {
    const float* img = x.row(s);
    float* out = y.row(s);
    for (int c = 0; c < in_.c; ++c)
      for (int oy = 0; oy < out_geo_.h; ++oy)
        for (int ox = 0; ox < out_geo_.w; ++ox) {
          // The first of the four largest wins (strictly greater replaces), written as selects.
          const int a = (c * in_.h + 2 * oy) * in_.w + 2 * ox, b = a + 1, d = a + in_.w, e = d + 1;
          int best = a;
          best = img[b] > img[best] ? b : best;
          best = img[d] > img[best] ? d : best;
          best = img[e] > img[best] ? e : best;
          const int64_t o = (static_cast<int64_t>(c) * out_geo_.h + oy) * out_geo_.w + ox;
          out[o] = img[best];
          if (train) argmax_[static_cast<size_t>(s * out_geo_.size() + o)] = best;
        }
  }
  batch_ = x.rows;
  return y;
}

Matrix MaxPool2::backward(const Matrix& g) {
  Matrix gx(g.rows, in_.size());
  for (int64_t s = 0; s < g.rows; ++s)
    for (int64_t o = 0; o < out_geo_.size(); ++o) gx.at(s, argmax_[static_cast<size_t>(s * out_geo_.size() + o)]) += g.at(s, o);
  return gx;
}

}  // namespace mlsys::dataopt
