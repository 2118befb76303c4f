#pragma once
// Where the images come from: an IDX dataset folder (Fashion-MNIST by default, any MNIST-family
// folder given by path) or the built-in synthetic generator. Rows are addressed by index into the
// train file so pool, shards and prior splits are disjoint by construction.
#include <cstdint>
#include <string>

#include "core/config/schema.hpp"
#include "dataopt/data/image_set.hpp"

namespace mlsys::dataopt {

struct DataSourceSpec {
  std::string source = "auto";  // auto | idx | synthetic
  std::string dir = "/usr/share/datasets/fashion-mnist";
  int64_t synthetic_train = 6000;
  int64_t synthetic_test = 1000;
  double synthetic_shift = 2;    // SyntheticSpec::max_shift
  double synthetic_noise = 0.08;  // SyntheticSpec::noise
  uint64_t seed = 1;  // not a key: the synthetic dataset is fixed; run.seed varies the method, not the data
  std::string cache_dir;  // uncompressed copies of gzipped IDX image files ("": read the .gz)
};

// The data keys (coopt.data.*, all but seed), declared once; coopt_section() nests them.
const config::Section<DataSourceSpec>& data_source_section();

class DataSource {
 public:
  explicit DataSource(DataSourceSpec spec);
  bool synthetic() const { return synthetic_; }
  std::string describe() const;
  int64_t train_count() const { return train_count_; }
  // Labeled rows [begin, end) of the train split; throws InputError when out of range.
  ImageSet train_rows(int64_t begin, int64_t end) const;
  // Labeled train rows at the given indices (in that order); one forward pass over the file that
  // stops after the last row asked for.
  ImageSet train_select(const std::vector<int64_t>& rows) const;
  // The first `limit` test images (all when limit <= 0).
  ImageSet test(int64_t limit) const;

 private:
  ImageSet generate(int64_t n, uint64_t seed) const;

  DataSourceSpec spec_;
  bool synthetic_ = false;
  int64_t train_count_ = 0;
};

}  // namespace mlsys::dataopt
