#pragma once
// What graph sources read: the `gnn.graph.*` keys, declared once and nested into the gnn section.
#include <string>

#include "core/config/schema.hpp"
#include "gnn/graph/generators.hpp"

namespace mlsys::gnn {

struct GraphOptions {
  std::string source = "sbm";  // registry: file, sbm, rmat, reddit-like, products-like
  std::string path;            // for source=file: text folder, OGB folder or .mlsg
  std::string ogb_scheme;
  bool binary_cache = true;    // text/OGB: write .mlsg to the cache on first load, map it later
  bool lenient = false;        // skip and count bad rows (non-finite features, bad labels/splits) instead of failing
  std::string cache_dir;       // "" -> $MLSYS_CACHE_DIR or ~/.cache/mlsys
  std::string convert_out;     // mode=convert: output .mlsg
  SbmParams sbm;               // graph.nodes ... graph.val_fraction
  RmatParams rmat;             // graph.rmat_scale, graph.rmat_edges
  double preset_scale = 1.0;         // reddit-like/products-like: fraction of the nodes to keep
  double preset_degree_scale = 1.0;  // ...and of the average degree
  bool normalize_features = false;   // divide every feature row by its L1 norm (Kipf & Welling)
};

// The block nested as `graph` into the gnn section.
const config::Section<GraphOptions>& graph_section();

}  // namespace mlsys::gnn
