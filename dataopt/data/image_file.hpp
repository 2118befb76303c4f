#pragma once
// Any image dataset the tool reads, named by path, for training priors on data other than the
// target: an IDX folder (MNIST layout: `<split>-images-idx3-ubyte[.gz]` + labels), a numeric CSV of
// square images with the label in the last column (scikit-learn's digits), or a .npy array of
// images [N, H, W], [N, C, H, W] or [N, side*side] (labels optional, from a second .npy of N
// integers). Pixels land in [0, 1]: IDX bytes / 255, CSV and .npy values / their largest value
// when it exceeds 1.
#include <filesystem>
#include <string>
#include <vector>

#include "dataopt/data/image_set.hpp"

namespace mlsys::dataopt {

struct ImageFileSpec {
  std::filesystem::path path;
  std::string split = "train";           // IDX folders: train | test (test also finds t10k-*)
  std::filesystem::path labels;          // .npy images: optional labels file
};

// Throws InputError naming the file for anything missing or malformed.
ImageSet read_image_file(const ImageFileSpec& spec);
// The files read_image_file reads (for the run record and for cache keys).
std::vector<std::filesystem::path> image_file_inputs(const ImageFileSpec& spec);

}  // namespace mlsys::dataopt
