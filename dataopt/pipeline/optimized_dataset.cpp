#include "dataopt/pipeline/optimized_dataset.hpp"

#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "dataopt/data/bytes.hpp"
#include "dataopt/data/npy.hpp"
#include "dataopt/math/tensor_ops.hpp"

namespace mlsys::dataopt {

namespace fs = std::filesystem;

namespace {

fs::path shard_dir(const fs::path& dir, int k) { return dir / ("shard-" + std::to_string(k)); }

// Appends the rows of a 2-D .npy file of the manifest's shape to `dst`.
void append_rows(const fs::path& p, int64_t rows, int64_t cols, std::vector<float>& dst) {
  NpyArray a = read_npy(p);
  if (a.shape.size() != 2 || a.shape[0] != rows || a.shape[1] != cols)
    throw InputError(p.string() + ": shape does not match the manifest (expected " + std::to_string(rows) + " x " +
                     std::to_string(cols) + ")");
  const std::vector<float> v = a.floats();
  dst.insert(dst.end(), v.begin(), v.end());
}

}  // namespace

void write_shard(const fs::path& dir, int k, const Shard& s) {
  const fs::path d = shard_dir(dir, k);
  ensure_dir(d);
  write_npy(d / "images.npy", s.images);
  write_npy(d / "targets.npy", s.targets);
  if (s.targets_unaligned.defined()) write_npy(d / "targets_unaligned.npy", s.targets_unaligned);
  write_npy(d / "index.npy", {static_cast<int64_t>(s.index.size())}, s.index);
}

void write_manifest(const fs::path& dir, const Json& manifest) {
  write_file_atomic(dir / "manifest.json", manifest.dump(2) + "\n");
}

OptimizedDataset read_optimized(const fs::path& dir) {
  const fs::path mf = dir / "manifest.json";
  if (!fs::exists(mf)) throw InputError("no optimized dataset in " + dir.string() + " (manifest.json missing); run `mlsys coopt optimize` first");
  OptimizedDataset d;
  d.manifest = Json::parse(read_bytes(mf));
  const Json* fmt = d.manifest.find("format");
  if (!fmt || !fmt->is_string() || fmt->as_string() != "mlsys-coopt-optimized")
    throw InputError(mf.string() + ": not an mlsys CoOpt optimized-dataset manifest");
  try {
    const Json& g = d.manifest["geometry"];
    d.geometry = {static_cast<int>(g.as_array()[0].as_int()), static_cast<int>(g.as_array()[1].as_int()),
                  static_cast<int>(g.as_array()[2].as_int())};
    const int64_t n = d.manifest["common_dim"].as_int();
    const auto& parts = d.manifest["participants"].as_array();
    bool unaligned = true;
    std::vector<float> images, targets, targets_unaligned;
    int64_t total = 0;
    for (size_t k = 0; k < parts.size(); ++k) {
      const int64_t rows = parts[k].find("rows")->as_int();
      const fs::path sd = shard_dir(dir, static_cast<int>(k));
      append_rows(sd / "images.npy", rows, d.geometry.size(), images);
      append_rows(sd / "targets.npy", rows, n, targets);
      unaligned = unaligned && fs::exists(sd / "targets_unaligned.npy");
      if (unaligned) append_rows(sd / "targets_unaligned.npy", rows, n, targets_unaligned);
      total += rows;
      NpyArray idx = read_npy(sd / "index.npy");
      if (idx.rows() != rows) throw InputError((sd / "index.npy").string() + ": row count differs from the manifest");
      for (int64_t v : idx.ints()) d.index.push_back(static_cast<int32_t>(v));
      d.shard_of.insert(d.shard_of.end(), static_cast<size_t>(rows), static_cast<int32_t>(k));
      const Json* w = parts[k].find("weight");
      d.weight.insert(d.weight.end(), static_cast<size_t>(rows), w ? static_cast<float>(w->as_number()) : 1.0f);
    }
    d.images = host_matrix(std::move(images), total, d.geometry.size());
    d.targets = host_matrix(std::move(targets), total, n);
    if (unaligned) d.targets_unaligned = host_matrix(std::move(targets_unaligned), total, n);
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(mf.string() + ": malformed manifest (" + e.what() + ")");
  }
  return d;
}

}  // namespace mlsys::dataopt
