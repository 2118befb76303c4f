#pragma once
// A generated labeled image dataset (no files needed): each class has a seeded prototype made of a
// few Gaussian strokes; samples are the prototype shifted by up to 2 pixels, with random contrast
// and pixel noise. Used by the quickstart when Fashion-MNIST is not installed, and by tests.
#include <cstdint>

#include "dataopt/data/image_set.hpp"

namespace mlsys::dataopt {

struct SyntheticSpec {
  int64_t n = 1000;
  int classes = 10;
  int side = 28;
  uint64_t seed = 1;
  // The prototypes depend only on this seed, so train and test sets share classes.
  uint64_t class_seed = 7;
};

ImageSet make_synthetic(const SyntheticSpec& spec);

}  // namespace mlsys::dataopt
