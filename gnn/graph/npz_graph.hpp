#pragma once
// Graphs from NumPy .npz files: the gnn-benchmark layout (Shchur et al.: adj_* CSR, attr_* CSR or
// attr_matrix, labels), PyG/DGL exports (x/features, edge_index or row/col, y/labels, masks) and
// Reddit's pair (<name>_data.npz + a scipy.sparse <name>_graph.npz). The key table is in
// gnn/README.md ("Graphs from .npz files"); the `file` source loads a path ending in .npz here.
#include <cstdint>
#include <filesystem>
#include <string>

#include "gnn/graph/graph.hpp"
#include "gnn/graph/graph_options.hpp"
#include "core/util/npz.hpp"

namespace mlsys::gnn {

// Without split keys the split is gnn.graph.train_fraction / val_fraction over the labeled nodes,
// drawn from `seed`. Throws InputError naming the file and key of the first problem.
Graph load_npz_graph(const std::filesystem::path& file, const GraphOptions& o, uint64_t seed);

// The same from open archives. `adjacency` holds the adjacency when it is a file of its own
// (scipy.sparse.save_npz: indptr/indices or row/col), else null and `a` must hold it.
Graph npz_graph(const NpzArchive& a, const NpzArchive* adjacency, const std::string& name, const GraphOptions& o,
                uint64_t seed);

}  // namespace mlsys::gnn
