#include "dataopt/train/augment.hpp"

#include <algorithm>

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

}  // namespace

Tensor augmented_batch(DeviceContext& ctx, const Tensor& images, Geometry g, const std::vector<int64_t>& rows,
                       const AugmentOptions& opt, Rng& rng, Tensor* clean) {
  const int64_t d = images.row_numel();
  Tensor out = Tensor::empty({static_cast<int64_t>(rows.size()), d}, DType::f32, ctx);
  if (clean) *clean = Tensor::empty(out.shape(), DType::f32, ctx);
  const float* all = images.data<float>();
  for (size_t r = 0; r < rows.size(); ++r) {
    const float* src = all + rows[r] * d;
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
    if (clean) std::copy(dst, dst + d, clean->data<float>() + static_cast<int64_t>(r) * d);
    if (opt.noise > 0) {
      const std::vector<float>& t = noise_table();
      size_t at = static_cast<size_t>(rng.below(kNoiseTable));
      const auto scale = static_cast<float>(opt.noise);
      for (int64_t j = 0; j < d; ++j, at = (at + 1) & (kNoiseTable - 1)) dst[j] += scale * t[at];
    }
  }
  return out;
}

}  // namespace mlsys::dataopt
