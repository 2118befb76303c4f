#pragma once
// SimCLR settings (Chen et al. 2020), used by the contrastive student baseline and by simclr priors:
// the projection head, the NT-Xent temperature, the views' augmentation and the optimizer. The
// Fashion-MNIST protocol sets temperature 0.2 and crop 0.8, chosen by the validation sweep in
// docs/coopt.md; these defaults are the sweep's starting point.
#include <cstdint>

#include "core/config/schema.hpp"
#include "dataopt/train/augment.hpp"

namespace mlsys::dataopt {

struct SimclrOptions {
  double temperature = 0.5;
  int64_t hidden = 256;  // projection head: Linear(features, hidden), ReLU, Linear(hidden, dim)
  int64_t dim = 64;
  double crop = 0.5;     // random resized crop: smallest area fraction (1: no crop)
  double jitter = 0.4;   // brightness/contrast jitter strength (0: none)
  double lr = 1e-3;
  int64_t batch = 256;   // images per step; each gives two views, the other 2B - 2 are negatives
};

// `base` (shift, flip, noise) with SimCLR's crop and jitter.
inline AugmentOptions simclr_augment(const SimclrOptions& c, AugmentOptions base) {
  base.crop = c.crop;
  base.jitter = c.jitter;
  return base;
}

// The `simclr.` block, nested into the coopt section.
const config::Section<SimclrOptions>& simclr_section();

}  // namespace mlsys::dataopt
