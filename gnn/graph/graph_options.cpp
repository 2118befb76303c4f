#include "gnn/graph/graph_options.hpp"

#include "gnn/graph/source.hpp"

namespace mlsys::gnn {

const config::Section<GraphOptions>& graph_section() {
  using O = GraphOptions;
  static const config::Section<O> s("graph", "Where the graph comes from", [](auto& s) {
    s.field("source", &O::source, "Where the graph comes from")
        .choices_described([] { return graph_source_registry().choices(); });
    s.field("path", &O::path, "source=file: text graph folder, OGB node-property folder, .mlsg file or .npz archive");
    s.field("ogb_scheme", &O::ogb_scheme, "OGB split scheme folder under split/ (\"\" = first)");
    s.field("binary_cache", &O::binary_cache, "Write a binary .mlsg copy of text/OGB graphs on first load and map it later");
    s.field("lenient", &O::lenient,
            "Text/OGB graphs: skip rows with NaN/Inf features, labels outside the classes or unknown split names and count them in summary.json (false: such a row is an error naming file:line)");
    s.field("cache_dir", &O::cache_dir, "Cache folder for binary graphs and partitions (\"\" = $MLSYS_CACHE_DIR or ~/.cache/mlsys)");
    s.field("convert_out", &O::convert_out, "mode=convert: output .mlsg path (\"\" = <out>/<graph>.mlsg)");
    s.nest("", &O::sbm, sbm_section());
    s.nest("", &O::rmat, rmat_section());
    s.field("preset_scale", &O::preset_scale, "reddit-like/products-like: fraction of the published node count").range(1e-6, 1);
    s.field("preset_degree_scale", &O::preset_degree_scale, "reddit-like/products-like: fraction of the published average degree").range(1e-6, 1);
    s.field("normalize_features", &O::normalize_features, "Divide every feature row by its L1 norm (as Kipf & Welling do for Cora)");
  });
  return s;
}

}  // namespace mlsys::gnn
