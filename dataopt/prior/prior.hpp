#pragma once
// A prior ("public task-agnostic model"): something that maps images to embeddings. Either a
// network mlsys trained (or initialized) and saved, or embeddings brought by the user for every
// pool image (rows in pool order), e.g. CLIP features computed elsewhere.
//
// Saved prior file (*.prior): text lines "mlsys-prior 2", "name <name>", "kind <kind>",
// "about <one line>", then the network block written by Network::save (see docs/coopt.md).
#include <filesystem>
#include <string>

#include "dataopt/model/network.hpp"

namespace mlsys::dataopt {

// The prior file format this build reads and writes (part of the prior cache key).
constexpr int kPriorFormat = 2;

struct Prior {
  std::string name, kind, about;
  Network net;            // unless external embeddings
  Tensor pool_embeddings;  // external: one row per pool image (host)
  bool external() const { return pool_embeddings.defined(); }
  int64_t dim() const { return external() ? pool_embeddings.dim(1) : net.feature_dim(); }
  // Embeddings of `images` whose pool indices are `pool_rows`, as a new tensor on ctx (network
  // priors run on ctx, the context they were built on, and ignore pool_rows; external priors look
  // the rows up).
  Tensor embed(DeviceContext& ctx, const Tensor& images, const std::vector<int64_t>& pool_rows, int64_t chunk = 128);
};

void save_prior(const std::filesystem::path& path, Prior& prior);
// The prior's network is built on ctx.
Prior load_prior(DeviceContext& ctx, const std::filesystem::path& path);
// Reads external embeddings (.npy of shape [rows, d] or CSV) as a host tensor and checks the row count.
Tensor load_embeddings(const std::filesystem::path& path, int64_t expected_rows);

}  // namespace mlsys::dataopt
