#pragma once
// Graph sources on disk. Each loader validates as it parses and throws InputError naming the
// file and line of the first problem.
#include <filesystem>
#include <string>

#include "gnn/graph/graph.hpp"

namespace mlsys::gnn {

// The text format of ../shared/data/graphs/<name>/ (meta.txt, edges.txt, features.txt,
// labels.txt, split.txt; see docs/train-gnn.md). features.txt is optional. Sparse feature files
// stay sparse (Graph::feature_indptr...) unless a tenth or more of the entries are nonzero.
// Non-finite feature values, labels outside the classes, unknown split names and unlabeled nodes
// in a split are errors naming file:line; `lenient` skips such rows instead and counts them in
// Graph::skipped_rows.
Graph load_text_graph(const std::filesystem::path& dir, bool lenient = false);

// An OGB node-property folder: raw/{edge,node-feat,node-label,num-node-list}.csv[.gz] and
// split/<scheme>/{train,valid,test}.csv[.gz]. `scheme` "" takes the only (or first) scheme.
// Non-finite feature values are errors (lenient: the row is zeroed and counted).
Graph load_ogb_graph(const std::filesystem::path& dir, const std::string& scheme = "", bool lenient = false);

// mlsys binary CSR (docs/train-gnn.md): written once, memory-mapped on reload. `source_key` (caches:
// what the copy was made from) is stored in the header and read back through `source_key`.
void write_binary_graph(const Graph& g, const std::filesystem::path& file, uint64_t source_key = 0);
Graph map_binary_graph(const std::filesystem::path& file, uint64_t* source_key = nullptr);

// Picks the loader from what `path` holds: a .mlsg file, an OGB folder or a text folder.
Graph load_graph_path(const std::filesystem::path& path, const std::string& ogb_scheme = "", bool lenient = false);

}  // namespace mlsys::gnn
