#pragma once
// IDX files (the MNIST family's format): a 4-byte magic (0, 0, element type, number of dims),
// big-endian uint32 dims, then the elements. Images are idx3 (n, rows, cols) of ubyte (scaled to
// [0, 1]) or float32 (kept); labels are idx1 ubyte. Files may be gzipped. Image files are read
// piecewise: only the rows asked for are converted, a plain file is read only at those rows and a
// gzipped one is inflated up to the last of them, never held whole.
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
// The images and labels at `rows` (any order, repeats allowed), in one forward pass over the file.
ImageSet read_idx_pair_rows(const std::filesystem::path& images, const std::filesystem::path& labels,
                            const std::vector<int64_t>& rows);

// Finds `<split>-images-idx3-ubyte[.gz]` and the labels file in `dir` (split "train" or "test";
// "test" also matches the MNIST name "t10k"). Throws InputError listing what was looked for.
// With a `cache_dir`, a gzipped images file is read from an uncompressed copy made there on first
// use (see uncompressed_copy).
ImageSet read_idx_split(const std::filesystem::path& dir, const std::string& split, int64_t begin = 0, int64_t end = -1,
                        const std::filesystem::path& cache_dir = {});
// The row indices begin, begin + 1, ..., end - 1 (empty when end <= begin), for the *_rows readers.
std::vector<int64_t> iota_rows(int64_t begin, int64_t end);
ImageSet read_idx_split_rows(const std::filesystem::path& dir, const std::string& split, const std::vector<int64_t>& rows,
                             const std::filesystem::path& cache_dir = {});
// `file` itself when cache_dir is "" or the file is not gzip data; otherwise an uncompressed copy
// in cache_dir, written once (atomically) and named after the source's path, size and time stamp.
// Reading rows from it costs only those rows, where a gzip stream must be inflated from its start.
std::filesystem::path uncompressed_copy(const std::filesystem::path& file, const std::filesystem::path& cache_dir);

// The path of `<split>-<kind>` (kind "images" or "labels") in dir, as read_idx_split finds it.
std::filesystem::path find_idx_file(const std::filesystem::path& dir, const std::string& split, const std::string& kind);
// Number of labeled examples in a split (reads only the labels file).
int64_t idx_split_count(const std::filesystem::path& dir, const std::string& split);

// Writers (uncompressed, or gzipped when the name ends in .gz), used for fixtures and exports.
void write_idx_images(const std::filesystem::path& path, const ImageSet& set);
void write_idx_labels(const std::filesystem::path& path, const std::vector<int32_t>& labels);

}  // namespace mlsys::dataopt
