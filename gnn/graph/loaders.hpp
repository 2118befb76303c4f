#pragma once
// Graph sources on disk. Each loader validates as it parses and throws InputError naming the
// file and line of the first problem.
#include <filesystem>
#include <string>

#include "gnn/graph/graph.hpp"

namespace mlsys::gnn {

// The text format of ../shared/data/graphs/<name>/ (meta.txt, edges.txt, features.txt,
// labels.txt, split.txt; see docs/train-gnn.md). features.txt is optional.
Graph load_text_graph(const std::filesystem::path& dir);

// An OGB node-property folder: raw/{edge,node-feat,node-label,num-node-list}.csv[.gz] and
// split/<scheme>/{train,valid,test}.csv[.gz]. `scheme` "" takes the only (or first) scheme.
Graph load_ogb_graph(const std::filesystem::path& dir, const std::string& scheme = "");

// mlsys binary CSR (docs/train-gnn.md): written once, memory-mapped on reload.
void write_binary_graph(const Graph& g, const std::filesystem::path& file);
Graph map_binary_graph(const std::filesystem::path& file);

// Picks the loader from what `path` holds: a .mlsg file, an OGB folder or a text folder.
Graph load_graph_path(const std::filesystem::path& path, const std::string& ogb_scheme = "");

}  // namespace mlsys::gnn
