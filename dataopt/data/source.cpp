#include "dataopt/data/source.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "core/log/log.hpp"
#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "dataopt/data/idx.hpp"
#include "dataopt/data/synthetic.hpp"

namespace mlsys::dataopt {

const config::Section<DataSourceSpec>& data_source_section() {
  using D = DataSourceSpec;
  static const config::Section<D> s("data", "CoOpt target dataset", [](auto& s) {
    s.field("source", &D::source, "auto (IDX folder when present, else synthetic), idx or synthetic")
        .choices({"auto", "idx", "synthetic"});
    s.field("dir", &D::dir, "IDX dataset folder (train-/t10k- images and labels, gzipped or not)");
    s.field("cache_dir", &D::cache_dir,
            "Folder for uncompressed copies of gzipped IDX image files, made once on first use, so each rank reads "
            "only its rows (\"\": read the .gz, inflating it up to the last row needed)");
    s.field("synthetic_train", &D::synthetic_train, "Synthetic train images").range(10, 1e7);
    s.field("synthetic_test", &D::synthetic_test, "Synthetic test images").range(10, 1e7);
    s.field("synthetic_shift", &D::synthetic_shift,
            "Synthetic images: largest offset of a sample from its class prototype, pixels per axis (larger: harder)")
        .range(0, 14);
    s.field("synthetic_noise", &D::synthetic_noise, "Synthetic images: sd of the Gaussian pixel noise")
        .range(0, 2);
  });
  return s;
}

DataSource::DataSource(DataSourceSpec spec) : spec_(std::move(spec)) {
  if (spec_.source == "synthetic") {
    synthetic_ = true;
  } else if (spec_.source == "auto") {
    synthetic_ = !std::filesystem::is_directory(spec_.dir);
    if (synthetic_)
      log::warn("coopt: {} not found (install dataset-fashion-mnist or set coopt.data.dir); using synthetic images",
                spec_.dir);
  } else if (spec_.source == "idx") {
    require_input(spec_.dir, "coopt.data.dir", InputKind::Folder, "an IDX dataset folder (source=idx)");
  } else {
    throw ConfigError("coopt.data.source must be auto, idx or synthetic, got '" + spec_.source + "'");
  }
  if (synthetic_) {
    train_count_ = spec_.synthetic_train;
  } else {
    // Reading only the labels file is cheap and validates the folder early.
    train_count_ = idx_split_count(spec_.dir, "train");
  }
}

std::string DataSource::describe() const {
  if (!synthetic_) return "IDX dataset " + spec_.dir;
  const SyntheticSpec easy;  // the generator's defaults are not spelled out, so the quickstart's line stays short
  const bool harder = spec_.synthetic_shift != easy.max_shift || spec_.synthetic_noise != easy.noise;
  return "synthetic images (" + std::to_string(spec_.synthetic_train) + " train, " + std::to_string(spec_.synthetic_test) +
         " test" + (harder ? fmt::format(", shift {:g} px, noise {:g}", spec_.synthetic_shift, spec_.synthetic_noise) : "") + ")";
}

ImageSet DataSource::generate(int64_t n, uint64_t seed) const {
  SyntheticSpec g{n, 10, 28, seed, 7};
  g.max_shift = spec_.synthetic_shift;
  g.noise = spec_.synthetic_noise;
  return make_synthetic(g);
}

ImageSet DataSource::train_rows(int64_t begin, int64_t end) const {
  if (!synthetic_) return read_idx_split(spec_.dir, "train", begin, end, spec_.cache_dir);
  if (begin < 0 || end > spec_.synthetic_train || begin > end)
    throw InputError("synthetic train rows [" + std::to_string(begin) + ", " + std::to_string(end) + ") out of range (" +
                     std::to_string(spec_.synthetic_train) + " rows; raise coopt.data.synthetic_train)");
  ImageSet all = generate(spec_.synthetic_train, spec_.seed);
  std::vector<int64_t> rows;
  for (int64_t i = begin; i < end; ++i) rows.push_back(i);
  return all.subset(rows);
}

ImageSet DataSource::train_select(const std::vector<int64_t>& rows) const {
  if (rows.empty()) return train_rows(0, 0);
  if (!synthetic_) return read_idx_split_rows(spec_.dir, "train", rows, spec_.cache_dir);
  const auto [lo, hi] = std::minmax_element(rows.begin(), rows.end());
  ImageSet block = train_rows(*lo, *hi + 1);
  std::vector<int64_t> local;
  for (int64_t r : rows) local.push_back(r - *lo);
  return block.subset(local);
}

ImageSet DataSource::test(int64_t limit) const {
  if (!synthetic_) return read_idx_split(spec_.dir, "test", 0, limit > 0 ? limit : -1, spec_.cache_dir);
  const int64_t n = limit > 0 ? std::min(limit, spec_.synthetic_test) : spec_.synthetic_test;
  return generate(n, spec_.seed + 1000003);
}

}  // namespace mlsys::dataopt
