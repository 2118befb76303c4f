#include "dataopt/train/augment.hpp"

#include <algorithm>
#include <cmath>

#include "core/util/error.hpp"

namespace mlsys::dataopt {

namespace {

// Pixel noise reads a fixed table of standard normals from a random offset per image: drawing a
// fresh normal per pixel cost as much as a training step of the MLP student.
constexpr size_t kNoiseTable = 1 << 16;
const std::vector<float>& noise_table() {
  static const std::vector<float> t = [] {
    std::vector<float> v(kNoiseTable);
    Rng r(0x6e6f697365);
    for (float& x : v) x = static_cast<float>(r.normal());
    return v;
  }();
  return t;
}

// A random region of the image resized back to its full size (bilinear, pixel centres aligned).
void random_resized_crop(const float* src, float* dst, Geometry g, double min_area, Rng& rng) {
  const double area = static_cast<double>(g.h) * g.w * (min_area + (1 - min_area) * rng.uniform());
  const double ratio = std::exp(std::log(0.75) + (std::log(4.0 / 3.0) - std::log(0.75)) * rng.uniform());
  const int ch = std::clamp(static_cast<int>(std::lround(std::sqrt(area / ratio))), 1, g.h);
  const int cw = std::clamp(static_cast<int>(std::lround(std::sqrt(area * ratio))), 1, g.w);
  const auto y0 = static_cast<int>(rng.below(static_cast<uint64_t>(g.h - ch + 1)));
  const auto x0 = static_cast<int>(rng.below(static_cast<uint64_t>(g.w - cw + 1)));
  const double fy = static_cast<double>(ch) / g.h, fx = static_cast<double>(cw) / g.w;
  for (int c = 0; c < g.c; ++c) {
    const float* s = src + static_cast<int64_t>(c) * g.h * g.w;
    float* d = dst + static_cast<int64_t>(c) * g.h * g.w;
    for (int y = 0; y < g.h; ++y) {
      const double sy = std::clamp(y0 + (y + 0.5) * fy - 0.5, 0.0, g.h - 1.0);
      const int ya = static_cast<int>(sy), yb = std::min(ya + 1, g.h - 1);
      const double ay = sy - ya;
      for (int x = 0; x < g.w; ++x) {
        const double sx = std::clamp(x0 + (x + 0.5) * fx - 0.5, 0.0, g.w - 1.0);
        const int xa = static_cast<int>(sx), xb = std::min(xa + 1, g.w - 1);
        const double ax = sx - xa;
        d[y * g.w + x] = static_cast<float>((1 - ay) * ((1 - ax) * s[ya * g.w + xa] + ax * s[ya * g.w + xb]) +
                                            ay * ((1 - ax) * s[yb * g.w + xa] + ax * s[yb * g.w + xb]));
      }
    }
  }
}

}  // namespace

Tensor augmented_batch(DeviceContext& ctx, const Tensor& images, Geometry g, const std::vector<int64_t>& rows,
                       const AugmentOptions& opt, Rng& rng, Tensor* clean) {
  if (images.device() != Device::cpu()) throw Error("augmented_batch: the source images must be a host tensor");
  const int64_t d = images.row_numel();
  // Views are drawn on the host (the random choices are per image and branchy) and moved to ctx
  // in one copy per batch.
  Tensor out = Tensor::empty({static_cast<int64_t>(rows.size()), d}, DType::f32);
  Tensor clean_host;
  if (clean) clean_host = Tensor::empty(out.shape(), DType::f32);
  const float* all = images.data<float>();
  std::vector<float> cropped(opt.crop < 1 ? static_cast<size_t>(d) : 0);
  for (size_t r = 0; r < rows.size(); ++r) {
    const float* src = all + rows[r] * d;
    if (opt.crop < 1) {
      random_resized_crop(src, cropped.data(), g, opt.crop, rng);
      src = cropped.data();
    }
    float* dst = out.data<float>() + static_cast<int64_t>(r) * d;
    const uint64_t span = 2 * static_cast<uint64_t>(opt.shift) + 1;
    const int dy = opt.shift > 0 ? static_cast<int>(rng.below(span)) - opt.shift : 0;
    const int dx = opt.shift > 0 ? static_cast<int>(rng.below(span)) - opt.shift : 0;
    const bool flip = opt.flip && rng.uniform() < 0.5;
    for (int c = 0; c < g.c; ++c)
      for (int y = 0; y < g.h; ++y) {
        const int sy = y - dy;
        for (int x = 0; x < g.w; ++x) {
          const int sx0 = x - dx;
          const int sx = flip ? g.w - 1 - sx0 : sx0;
          dst[(c * g.h + y) * g.w + x] =
              (sy < 0 || sy >= g.h || sx < 0 || sx >= g.w) ? 0.0f : src[(c * g.h + sy) * g.w + sx];
        }
      }
    if (opt.jitter > 0) {
      const auto contrast = static_cast<float>(1 + opt.jitter * (2 * rng.uniform() - 1));
      const auto bright = static_cast<float>(opt.jitter * (rng.uniform() - 0.5));
      double sum = 0;
      for (int64_t j = 0; j < d; ++j) sum += dst[j];
      const auto mean = static_cast<float>(sum / static_cast<double>(d));
      for (int64_t j = 0; j < d; ++j) dst[j] = std::clamp((dst[j] - mean) * contrast + mean + bright, 0.f, 1.f);
    }
    if (clean) std::copy(dst, dst + d, clean_host.data<float>() + static_cast<int64_t>(r) * d);
    if (opt.noise > 0) {
      const std::vector<float>& t = noise_table();
      size_t at = static_cast<size_t>(rng.below(kNoiseTable));
      const auto scale = static_cast<float>(opt.noise);
      for (int64_t j = 0; j < d; ++j, at = (at + 1) & (kNoiseTable - 1)) dst[j] += scale * t[at];
    }
  }
  if (clean) *clean = clean_host.to(ctx);
  return out.to(ctx);
}

}  // namespace mlsys::dataopt
