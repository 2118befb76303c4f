#include "dataopt/data/synthetic.hpp"

#include <algorithm>
#include <cmath>

#include "core/util/error.hpp"
#include "core/util/random.hpp"

namespace mlsys::dataopt {

namespace {

struct Stroke {
  double cx, cy, sx, sy, weight;
};

}  // namespace

ImageSet make_synthetic(const SyntheticSpec& spec) {
  if (spec.n < 1 || spec.classes < 2 || spec.side < 6 || spec.max_shift < 0 || spec.noise < 0)
    throw Error("synthetic dataset needs n >= 1, classes >= 2, side >= 6, max_shift >= 0 and noise >= 0");
  Rng proto_rng(spec.class_seed);
  const double side = spec.side;
  std::vector<std::vector<Stroke>> protos(static_cast<size_t>(spec.classes));
  for (auto& p : protos)
    for (int s = 0; s < 4; ++s)
      p.push_back({side * (0.25 + 0.5 * proto_rng.uniform()), side * (0.25 + 0.5 * proto_rng.uniform()),
                   side * (0.04 + 0.2 * proto_rng.uniform()), side * (0.04 + 0.2 * proto_rng.uniform()),
                   0.5 + 0.5 * proto_rng.uniform()});
  ImageSet out;
  out.n = spec.n;
  out.height = out.width = spec.side;
  out.source = "synthetic(seed " + std::to_string(spec.seed) + ")";
  out.pixels.assign(static_cast<size_t>(out.n * out.dim()), 0);
  std::vector<int32_t> labels(static_cast<size_t>(spec.n));
  Rng rng(spec.seed);
  for (int64_t i = 0; i < spec.n; ++i) {
    const auto c = static_cast<int32_t>(i % spec.classes);  // balanced classes
    labels[static_cast<size_t>(i)] = c;
    const double dx = rng.uniform() * 2 * spec.max_shift - spec.max_shift;
    const double dy = rng.uniform() * 2 * spec.max_shift - spec.max_shift;
    const double contrast = 0.7 + 0.3 * rng.uniform();
    float* img = out.pixels.data() + i * out.dim();
    for (int y = 0; y < spec.side; ++y)
      for (int x = 0; x < spec.side; ++x) {
        double v = 0;
        for (const Stroke& s : protos[static_cast<size_t>(c)]) {
          const double u = (x - s.cx - dx) / s.sx, w = (y - s.cy - dy) / s.sy;
          v += s.weight * std::exp(-0.5 * (u * u + w * w));
        }
        v = contrast * v + spec.noise * rng.normal();
        img[y * spec.side + x] = static_cast<float>(std::clamp(v, 0.0, 1.0));
      }
  }
  out.set_labels(std::move(labels));
  return out;
}

}  // namespace mlsys::dataopt
