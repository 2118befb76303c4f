#pragma once
// Prior kinds (registry): how a participant's prior is obtained. Each kind lives in its own file
// under prior/kinds/ and registers itself by name.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/config/schema.hpp"
#include "core/registry/registry.hpp"
#include "dataopt/data/source.hpp"
#include "dataopt/prior/prior.hpp"
#include "dataopt/train/simclr_options.hpp"

namespace mlsys::dataopt {

// One entry of coopt.priors (a YAML list of maps); see docs/coopt.md for the keys.
struct PriorSpec {
  std::string name, kind;
  std::string arch = "mlp:256";
  // What a trained prior learns from: "target" (rows of the target dataset's train file, disjoint
  // from the pool), "digits" (the file coopt.data.digits_csv) or the path of any image dataset
  // read_image_file reads (an IDX folder, a .csv, a .npy), resized to the target's image size.
  std::string dataset = "target";
  std::string split = "train";           // IDX folder datasets: train | test
  std::string label_file;                // .npy datasets: labels (.npy of integers), for supervised priors
  int64_t rows_begin = 0, rows_end = 0;  // rows it learns from ([0, 0): all rows of a dataset other than target)
  std::string labels = "fine";           // supervised: fine | coarse
  std::string path;                      // embeddings: .npy/.csv file; file: a saved .prior
  int epochs = 2;
  double lr = 1e-3;
  int64_t batch = 64;
  std::string where;  // file:line:col of the entry, for errors
  std::string fingerprint() const;  // every field that changes the trained prior
  bool target_data() const { return dataset == "target"; }
};

struct PriorBuildContext {
  DeviceContext* device = nullptr;  // where the prior's network is built and trained
  const DataSource* data = nullptr;
  uint64_t seed = 1;
  int64_t pool_rows = 0;             // for external embeddings
  std::filesystem::path digits_csv;  // coopt.data.digits_csv ("" = none given)
  int channels = 1, height = 28, width = 28;  // target image geometry
  SimclrOptions simclr;              // simclr priors
};

class PriorKind {
 public:
  virtual ~PriorKind() = default;
  // Network priors are built (and trained) on ctx.device.
  virtual Prior build(const PriorSpec& spec, const PriorBuildContext& ctx) const = 0;
  // False for priors that are loaded rather than trained (nothing to cache).
  virtual bool cacheable() const { return true; }
  // Settings outside the spec that change what build() makes (part of the cache key).
  virtual std::string settings(const PriorBuildContext&) const { return ""; }
};

using PriorKindRegistry = Registry<PriorKind>;
PriorKindRegistry& prior_kind_registry();

// Parses coopt.priors; throws ConfigError naming file:line:col.
std::vector<PriorSpec> parse_prior_specs(const config::YamlValue& value);
// The default participants (one strong prior + three weaker ones) for a train file of `rows` rows.
std::string default_priors_yaml();

// The images a trained prior learns from (spec.dataset and rows), at the target's image size;
// `labeled` asks for labels too (InputError when the dataset has none). Target rows must be given
// and must lie outside the pool (checked by the setup).
ImageSet prior_training_set(const PriorSpec& spec, const PriorBuildContext& ctx, bool labeled);
// The files a prior reads: its dataset's files for trained kinds (none for the target dataset,
// which the run records itself), `path` for saved priors and embeddings. For the run record and
// the prior cache key.
std::vector<std::filesystem::path> prior_input_files(const PriorSpec& spec, const PriorBuildContext& ctx);
// A short description of the training data for a prior's `about` line.
std::string describe_training_set(const PriorSpec& spec, const ImageSet& data);

// Fashion-MNIST's 10 classes merged into 4 (tops, trousers, footwear, bags); other class counts
// map label -> label * 4 / classes.
std::vector<int32_t> coarse_labels(const std::vector<int32_t>& labels, int classes);

}  // namespace mlsys::dataopt
