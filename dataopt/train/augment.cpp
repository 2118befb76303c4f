#include "dataopt/train/augment.hpp"

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

Matrix augmented_batch(const Matrix& images, Geometry g, const std::vector<int64_t>& rows, const AugmentOptions& opt,
                       Rng& rng, Matrix* clean) {
  Matrix out(static_cast<int64_t>(rows.size()), images.cols);
  if (clean) *clean = Matrix(out.rows, out.cols);
  for (size_t r = 0; r < rows.size(); ++r) {
    const float* src = images.row(rows[r]);
    float* dst = out.row(static_cast<int64_t>(r));
    const int span = 2 * opt.shift + 1;
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
    if (clean) std::copy(dst, dst + out.cols, clean->row(static_cast<int64_t>(r)));
    if (opt.noise > 0) {
      const std::vector<float>& t = noise_table();
      size_t at = static_cast<size_t>(rng.below(static_cast<int64_t>(kNoiseTable)));
      const auto scale = static_cast<float>(opt.noise);
      for (int64_t j = 0; j < out.cols; ++j, at = (at + 1) & (kNoiseTable - 1)) dst[j] += scale * t[at];
    }
  }
  return out;
}

}  // namespace mlsys::dataopt
