// Bring-your-own prior: embeddings computed elsewhere (e.g. CLIP), one row per pool image in pool
// order, as .npy (rows, dim) or CSV.
#include "core/util/error.hpp"
#include "dataopt/prior/prior_kind.hpp"

namespace mlsys::dataopt {

namespace {

class Embeddings final : public PriorKind {
 public:
  Prior build(const PriorSpec& s, const PriorBuildContext& ctx) const override {
    if (s.path.empty()) throw ConfigError(s.where + ": embeddings prior '" + s.name + "' needs path: <file.npy|file.csv>");
    Prior p;
    p.name = s.name;
    p.kind = "embeddings";
    p.about = "external embeddings from " + s.path;
    p.pool_embeddings = load_embeddings(s.path, ctx.pool_rows);
    return p;
  }
  bool cacheable() const override { return false; }
};

const bool registered = prior_kind_registry().add(
    "embeddings", "Precomputed embeddings of the pool (.npy or CSV, pool order) brought by the user",
    [] { return std::make_unique<Embeddings>(); });

}  // namespace

}  // namespace mlsys::dataopt
