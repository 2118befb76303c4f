#pragma once
// Views for student training: a random shift of up to `shift` pixels (zero fill, the shift/crop
// augmentation of small images), an optional horizontal flip and additive Gaussian pixel noise.
#include <cstdint>
#include <vector>

#include "dataopt/math/matrix.hpp"
#include "dataopt/math/rng.hpp"
#include "dataopt/net/layers.hpp"

namespace mlsys::dataopt {

struct AugmentOptions {
  int shift = 2;
  bool flip = true;
  double noise = 0.1;
};

// Rows `rows` of `images` (one image per row, geometry g), augmented. `clean` (optional) receives
// the same views without noise (the denoising target).
Matrix augmented_batch(const Matrix& images, Geometry g, const std::vector<int64_t>& rows, const AugmentOptions& opt,
                       Rng& rng, Matrix* clean = nullptr);

}  // namespace mlsys::dataopt
