#pragma once
// Views for student training: a random shift of up to `shift` pixels (zero fill, the shift/crop
// augmentation of small images), an optional horizontal flip and additive Gaussian pixel noise.
#include <cstdint>
#include <vector>

#include "core/tensor/device_context.hpp"
#include "core/util/random.hpp"
#include "dataopt/data/image_set.hpp"

namespace mlsys::dataopt {

struct AugmentOptions {
  int shift = 2;
  bool flip = true;
  double noise = 0.1;
};

// Rows `rows` of `images` (host [N, C*H*W], geometry g), augmented, as a new host tensor on ctx.
// `clean` (optional) receives the same views without noise (the denoising target).
Tensor augmented_batch(DeviceContext& ctx, const Tensor& images, Geometry g, const std::vector<int64_t>& rows,
                       const AugmentOptions& opt, Rng& rng, Tensor* clean = nullptr);

}  // namespace mlsys::dataopt
