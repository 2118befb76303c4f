#pragma once
// IDX files (the MNIST family's format): a 4-byte magic (0, 0, element type, number of dims),
// big-endian uint32 dims, then the elements. Images are idx3 (n, rows, cols) of ubyte (scaled to
// [0, 1]) or float32 (kept); labels are idx1 ubyte. Files may be gzipped.
#include <filesystem>
#include <string>

#include "dataopt/data/image_set.hpp"

namespace mlsys::dataopt {

// Rows [begin, end) only (end < 0: to the last image); pixels of other rows are never converted.
ImageSet read_idx_images(const std::filesystem::path& path, int64_t begin = 0, int64_t end = -1);
std::vector<int32_t> read_idx_labels(const std::filesystem::path& path, int64_t begin = 0, int64_t end = -1);
// Images plus labels; throws InputError when the counts differ.
ImageSet read_idx_pair(const std::filesystem::path& images, const std::filesystem::path& labels, int64_t begin = 0,
                       int64_t end = -1);

// Finds `<split>-images-idx3-ubyte[.gz]` and the labels file in `dir` (split "train" or "test";
// "test" also matches the MNIST name "t10k"). Throws InputError listing what was looked for.
ImageSet read_idx_split(const std::filesystem::path& dir, const std::string& split, int64_t begin = 0, int64_t end = -1);

// The path of `<split>-<kind>` (kind "images" or "labels") in dir, as read_idx_split finds it.
std::filesystem::path find_idx_file(const std::filesystem::path& dir, const std::string& split, const std::string& kind);
// Number of labeled examples in a split (reads only the labels file).
int64_t idx_split_count(const std::filesystem::path& dir, const std::string& split);

// Writers (uncompressed, or gzipped when the name ends in .gz), used for fixtures and exports.
void write_idx_images(const std::filesystem::path& path, const ImageSet& set);
void write_idx_labels(const std::filesystem::path& path, const std::vector<int32_t>& labels);

}  // namespace mlsys::dataopt
