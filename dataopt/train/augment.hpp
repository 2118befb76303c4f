#pragma once
// Views for training: an optional random resized crop (a random region of at least `crop` of the
// image area, aspect ratio in [3/4, 4/3], resized back bilinearly: SimCLR's main augmentation),
// a random shift of up to `shift` pixels (zero fill), an optional horizontal flip, an optional
// brightness/contrast jitter and additive Gaussian pixel noise.
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
  double crop = 1;    // smallest crop area as a fraction of the image; 1: no crop
  double jitter = 0;  // contrast factor in [1 - jitter, 1 + jitter], brightness shift in +-jitter/2
};

// Rows `rows` of `images` (host [N, C*H*W], geometry g), augmented, as a new tensor on ctx (built
// on the host and copied over when ctx is a device). `clean` (optional) receives the same views
// without noise (the denoising target), also on ctx.
Tensor augmented_batch(DeviceContext& ctx, const Tensor& images, Geometry g, const std::vector<int64_t>& rows,
                       const AugmentOptions& opt, Rng& rng, Tensor* clean = nullptr);

}  // namespace mlsys::dataopt
