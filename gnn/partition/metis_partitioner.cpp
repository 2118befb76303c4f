// METIS k-way (libmetis): minimizes total communication volume by default (what halo exchange
// pays), or the edge cut with objective=cut.
#include <metis.h>

#include <fmt/format.h>

#include "core/util/error.hpp"
#include "gnn/partition/partitioner.hpp"

namespace mlsys::gnn {
namespace {

struct MetisPartitioner final : Partitioner {
  std::vector<int32_t> partition(const Graph& g, const PartitionParams& p) override {
    idx_t n = static_cast<idx_t>(g.num_nodes), ncon = 1, nparts = p.parts, objval = 0;
    std::vector<idx_t> xadj(g.indptr.begin(), g.indptr.end()), adj(g.indices.begin(), g.indices.end());
    std::vector<idx_t> part(static_cast<size_t>(n));
    idx_t opts[METIS_NOPTIONS];
    METIS_SetDefaultOptions(opts);
    if (p.objective != "volume" && p.objective != "cut")
      throw ConfigError("gnn.metis_objective must be 'volume' or 'cut', got '" + p.objective + "'");
    opts[METIS_OPTION_OBJTYPE] = p.objective == "volume" ? METIS_OBJTYPE_VOL : METIS_OBJTYPE_CUT;
    opts[METIS_OPTION_SEED] = static_cast<idx_t>(p.seed % 1000003);
    opts[METIS_OPTION_CONTIG] = 0;
    int rc = METIS_PartGraphKway(&n, &ncon, xadj.data(), adj.data(), nullptr, nullptr, nullptr, &nparts, nullptr,
                                 nullptr, opts, &objval, part.data());
    if (rc != METIS_OK) throw Error(fmt::format("METIS_PartGraphKway failed (code {})", rc));
    return std::vector<int32_t>(part.begin(), part.end());
  }
};

const bool registered = partitioner_registry().add("metis", "METIS k-way; objective volume (default) or cut",
                                                   [] { return std::make_unique<MetisPartitioner>(); });

}  // namespace
}  // namespace mlsys::gnn
