#pragma once
// A generated labeled image dataset (no files needed): each class has a seeded prototype made of a
// few Gaussian strokes; samples are the prototype shifted by up to `max_shift` pixels, with random
// contrast and Gaussian pixel noise. Used by the quickstart when Fashion-MNIST is not installed, and
// by tests. The defaults make an easy set (raw pixels near 100%); larger shifts and noise make one
// where pixels are a weak baseline and learned features matter (configs/coopt/claims_synthetic.yaml).
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
  double max_shift = 2;  // each sample's offset is uniform in [-max_shift, max_shift] pixels per axis
  double noise = 0.08;   // sd of the Gaussian pixel noise
};

ImageSet make_synthetic(const SyntheticSpec& spec);

}  // namespace mlsys::dataopt
