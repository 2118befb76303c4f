#include "dataopt/data/image_file.hpp"

#include <algorithm>
#include <cmath>

#include "core/util/error.hpp"
#include "core/util/strings.hpp"
#include "dataopt/data/csv.hpp"
#include "dataopt/data/idx.hpp"
#include "dataopt/data/npy.hpp"

namespace mlsys::dataopt {

namespace fs = std::filesystem;

namespace {

// The extension that names the format, looking through a trailing .gz.
std::string format_of(const fs::path& p) {
  const fs::path name = p.extension() == ".gz" ? p.stem() : p.filename();
  return name.extension().string();
}

ImageSet read_npy_images(const ImageFileSpec& spec) {
  NpyArray a = read_npy(spec.path);
  const std::string where = spec.path.string();
  ImageSet s;
  s.n = a.rows();
  s.source = where;
  if (a.shape.size() == 3) {
    s.height = static_cast<int>(a.shape[1]);
    s.width = static_cast<int>(a.shape[2]);
  } else if (a.shape.size() == 4) {
    s.channels = static_cast<int>(a.shape[1]);
    s.height = static_cast<int>(a.shape[2]);
    s.width = static_cast<int>(a.shape[3]);
  } else if (a.shape.size() == 2) {
    const auto side = static_cast<int64_t>(std::llround(std::sqrt(static_cast<double>(a.shape[1]))));
    if (side * side != a.shape[1])
      throw InputError(where + ": rows of " + std::to_string(a.shape[1]) +
                       " values are not square images; give the array as [N, H, W] or [N, C, H, W]");
    s.height = s.width = static_cast<int>(side);
  } else {
    throw InputError(where + ": expected images [N, H, W], [N, C, H, W] or [N, side*side], got " +
                     std::to_string(a.shape.size()) + " dimensions");
  }
  std::vector<float> pixels = a.floats();
  float peak = 0;
  for (float v : pixels) {
    if (!std::isfinite(v) || v < 0) throw InputError(where + ": pixel values must be finite and non-negative");
    peak = std::max(peak, v);
  }
  if (peak > 1)
    for (float& v : pixels) v /= peak;
  s.pixels = std::move(pixels);
  if (!spec.labels.empty()) {
    const NpyArray l = read_npy(spec.labels);
    if (l.rows() != s.n || l.row_size() != 1)
      throw InputError(spec.labels.string() + ": expected " + std::to_string(s.n) + " labels (one per image of " + where + ")");
    std::vector<int32_t> labels;
    for (float v : l.floats()) {
      if (v < 0 || v != std::floor(v) || v > 1e6f)
        throw InputError(spec.labels.string() + ": labels must be non-negative integers");
      labels.push_back(static_cast<int32_t>(v));
    }
    s.set_labels(std::move(labels));
  }
  s.validate();
  return s;
}

void check_split(const ImageFileSpec& spec) {
  if (spec.split != "train" && spec.split != "test")
    throw ConfigError(spec.path.string() + ": split must be train or test, got '" + spec.split + "'");
}

}  // namespace

ImageSet read_image_file(const ImageFileSpec& spec) {
  if (spec.path.empty()) throw ConfigError("no image dataset path given");
  if (fs::is_directory(spec.path)) {
    check_split(spec);
    ImageSet s = read_idx_split(spec.path, spec.split);
    if (!spec.labels.empty()) throw ConfigError(spec.path.string() + ": an IDX folder holds its own labels; drop label_file");
    return s;
  }
  if (!fs::is_regular_file(spec.path))
    throw InputError("image dataset not found: " + spec.path.string() + " (an IDX folder, a .csv or a .npy file)");
  const std::string fmt = format_of(spec.path);
  if (fmt == ".csv") {
    if (!spec.labels.empty()) throw ConfigError(spec.path.string() + ": a CSV holds its labels in the last column; drop label_file");
    return read_csv_images(spec.path);
  }
  if (fmt == ".npy") return read_npy_images(spec);
  throw InputError(spec.path.string() + ": unknown image dataset format '" + fmt +
                   "' (an IDX folder, a .csv[.gz] of pixels + label, or a .npy of images)");
}

std::vector<fs::path> image_file_inputs(const ImageFileSpec& spec) {
  if (fs::is_directory(spec.path)) {
    check_split(spec);
    return {find_idx_file(spec.path, spec.split, "images"), find_idx_file(spec.path, spec.split, "labels")};
  }
  std::vector<fs::path> out{spec.path};
  if (!spec.labels.empty()) out.push_back(spec.labels);
  return out;
}

}  // namespace mlsys::dataopt
