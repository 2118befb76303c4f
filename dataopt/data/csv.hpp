#pragma once
// Numeric CSV files: a matrix reader (one header line of names is skipped) and an image reader
// for files like scikit-learn's digits (pixel columns then the label in the last column).
#include <filesystem>
#include <vector>

#include "core/tensor/tensor.hpp"
#include "dataopt/data/image_set.hpp"

namespace mlsys::dataopt {

// A host tensor [rows, cols]. Throws InputError naming file:line for a non-numeric cell or a
// ragged row.
Tensor read_csv_matrix(const std::filesystem::path& path);

// Square images of side sqrt(cols - 1); pixels are divided by the file's largest pixel value so
// they land in [0, 1] (digits are 0-16). Throws when cols - 1 is not a square or labels are not
// non-negative integers.
ImageSet read_csv_images(const std::filesystem::path& path);

}  // namespace mlsys::dataopt
