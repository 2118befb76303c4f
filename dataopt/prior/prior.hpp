#pragma once
// A prior ("public task-agnostic model"): something that maps images to embeddings. Either a
// network mlsys trained (or initialized) and saved, or embeddings brought by the user for every
// pool image (rows in pool order), e.g. CLIP features computed elsewhere.
//
// Saved prior file (*.prior): text lines "mlsys-prior 1", "name <name>", "kind <kind>",
// "about <one line>", then the network block written by Net::save (see docs/coopt.md).
#include <filesystem>
#include <string>

#include "dataopt/math/matrix.hpp"
#include "dataopt/net/net.hpp"

namespace mlsys::dataopt {

struct Prior {
  std::string name, kind, about;
  Net net;                 // unless external embeddings
  Matrix pool_embeddings;  // external: one row per pool image
  bool external() const { return pool_embeddings.rows > 0; }
  int64_t dim() const { return external() ? pool_embeddings.cols : net.feature_dim(); }
  // Embeddings of `images` whose pool indices are `pool_rows` (external priors look rows up;
  // network priors ignore pool_rows).
  Matrix embed(const Matrix& images, const std::vector<int64_t>& pool_rows, int64_t chunk = 128);
};

void save_prior(const std::filesystem::path& path, Prior& prior);
Prior load_prior(const std::filesystem::path& path);
// Reads external embeddings (.npy of shape [rows, d] or CSV) and checks the row count.
Matrix load_embeddings(const std::filesystem::path& path, int64_t expected_rows);

}  // namespace mlsys::dataopt
