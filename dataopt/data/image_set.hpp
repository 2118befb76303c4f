#pragma once
// An in-memory set of equally sized images (pixels scaled to [0, 1]) with optional labels. Every
// dataset reader produces one; priors, participants and students consume it.
#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor/tensor.hpp"

namespace mlsys::dataopt {

// Channels, height and width of one image; images are stored channel-major (C, H, W) per row.
struct Geometry {
  int c = 1, h = 1, w = 1;
  int64_t size() const { return static_cast<int64_t>(c) * h * w; }
};

struct ImageSet {
  int64_t n = 0;
  int channels = 1, height = 0, width = 0;
  std::vector<float> pixels;    // n * channels * height * width, row-major, values in [0, 1]
  std::vector<int32_t> labels;  // n entries, or empty when unlabeled
  int classes = 0;              // 1 + max label (0 when unlabeled)
  std::string source;           // where it came from, for messages and manifests

  int64_t dim() const { return static_cast<int64_t>(channels) * height * width; }
  Geometry geometry() const { return {channels, height, width}; }
  // The pixels as a host tensor [n, dim] (a copy that owns its memory).
  Tensor images() const { return Tensor::from_vector(std::vector<float>(pixels), Shape{n, dim()}); }
  const float* image(int64_t i) const { return pixels.data() + i * dim(); }
  bool labeled() const { return !labels.empty(); }
  // The images at `rows` (in that order), labels included.
  ImageSet subset(const std::vector<int64_t>& rows) const;
  // Same images with labels replaced (used for coarse label sets); recomputes `classes`.
  void set_labels(std::vector<int32_t> l);
  // Throws InputError naming `source` when the sizes are inconsistent.
  void validate() const;
};

// Concatenates sets of identical geometry.
ImageSet concat(const std::vector<const ImageSet*>& parts);

// Bilinear resize of every image to height x width (pixel centres aligned, align_corners = false),
// e.g. 8x8 digits or 16x16 USPS to a 28x28 target for a prior. Labels are kept.
ImageSet resize_images(const ImageSet& s, int height, int width);

}  // namespace mlsys::dataopt
