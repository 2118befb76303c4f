#pragma once
// Prior kinds (registry): how a participant's prior is obtained. Each kind lives in its own file
// under prior/kinds/ and registers itself by name.
#include <cstdint>
#include <filesystem>
#include <string>

#include "core/config/schema.hpp"
#include "core/registry/registry.hpp"
#include "dataopt/data/source.hpp"
#include "dataopt/prior/prior.hpp"

namespace mlsys::dataopt {

// One entry of coopt.priors (a YAML list of maps); see docs/coopt.md for the keys.
struct PriorSpec {
  std::string name, kind;
  std::string arch = "mlp:256";
  int64_t rows_begin = 0, rows_end = 0;  // rows of the train file it learns from (disjoint from the pool)
  std::string labels = "fine";           // supervised: fine | coarse
  std::string dataset = "target";        // supervised: target (the IDX/synthetic source) | digits
  std::string path;                      // embeddings: .npy/.csv file; file: a saved .prior
  int epochs = 2;
  double lr = 1e-3;
  int64_t batch = 64;
  std::string where;  // file:line:col of the entry, for errors
  std::string fingerprint() const;  // every field that changes the trained prior
};

struct PriorBuildContext {
  DeviceContext* device = nullptr;  // where the prior's network is built and trained
  const DataSource* data = nullptr;
  uint64_t seed = 1;
  int64_t pool_rows = 0;          // for external embeddings
  std::filesystem::path digits_csv;  // sklearn digits CSV
  int height = 28, width = 28;    // target image geometry
};

class PriorKind {
 public:
  virtual ~PriorKind() = default;
  // Network priors are built (and trained) on ctx.device.
  virtual Prior build(const PriorSpec& spec, const PriorBuildContext& ctx) const = 0;
  // False for priors that are loaded rather than trained (nothing to cache).
  virtual bool cacheable() const { return true; }
};

using PriorKindRegistry = Registry<PriorKind>;
PriorKindRegistry& prior_kind_registry();

// Parses coopt.priors; throws ConfigError naming file:line:col.
std::vector<PriorSpec> parse_prior_specs(const config::YamlValue& value);
// The default participants (one strong prior + three weaker ones) for a train file of `rows` rows.
std::string default_priors_yaml();

// Fashion-MNIST's 10 classes merged into 4 (tops, trousers, footwear, bags); other class counts
// map label -> label * 4 / classes.
std::vector<int32_t> coarse_labels(const std::vector<int32_t>& labels, int classes);

}  // namespace mlsys::dataopt
