#pragma once
// A node-classification graph: symmetric adjacency (CSR, no self loops, sorted rows), node
// features (dense, or sparse rows for bag-of-words inputs), labels and the train/val/test split. Everything downstream (partitioners, halo plans,
// trainers) reads this one shape, whatever the source (text, OGB folder, binary CSR, generator).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "gnn/graph/array.hpp"

namespace mlsys::gnn {

enum class Split : uint8_t { None = 0, Train = 1, Val = 2, Test = 3 };

struct Graph {
  std::string name;
  int64_t num_nodes = 0;
  Array<int64_t> indptr;   // num_nodes + 1
  Array<int32_t> indices;  // neighbours, symmetric: v in row u <=> u in row v
  int64_t feature_dim = 0;
  // Dense features: num_nodes x feature_dim, row-major. Empty when the features are sparse or the
  // source has none.
  Array<float> features;
  // Sparse features (CSR, columns ascending within a row, explicit zeros dropped): row v's entries
  // are feature_indices/feature_values[feature_indptr[v] .. feature_indptr[v + 1]). Empty when dense.
  Array<int64_t> feature_indptr;
  Array<int32_t> feature_indices;
  Array<float> feature_values;
  int32_t num_classes = 0;
  Array<int32_t> labels;  // -1 = unlabeled
  Array<uint8_t> split;   // Split values
  // Multi-label graphs (text meta.txt `multilabel 1`): nodes x num_classes, 1 = the node has the
  // class; labels[v] is then 0 for labeled nodes and -1 otherwise. Empty for single-label graphs.
  Array<uint8_t> multi_labels;
  // Rows a lenient load skipped ("file: reason" -> count); empty for a strict load.
  std::map<std::string, int64_t> skipped_rows;

  int64_t num_edges() const { return static_cast<int64_t>(indices.size()); }  // directed entries
  int64_t degree(int64_t v) const { return indptr[v + 1] - indptr[v]; }
  bool multi_label() const { return !multi_labels.empty(); }
  bool sparse_features() const { return !feature_indptr.empty(); }
  bool has_features() const { return feature_dim > 0 && (sparse_features() || !features.empty()); }
  // Stored feature values (nonzeros when sparse, nodes x feature_dim when dense).
  int64_t feature_entries() const;
  // Bytes the features take in memory (values, and column ids and row pointers when sparse).
  int64_t feature_bytes() const;
  int64_t count(Split s) const;
  // Frees the feature arrays (feature_dim stays), for a caller that reads them no more.
  void release_features();
  // A 64-bit fingerprint of structure + shape; keys partition caches.
  uint64_t fingerprint() const;
  // Throws InputError when the invariants above do not hold (names `source`).
  void validate(const std::string& source) const;
};

// Builds the symmetric, deduplicated, self-loop-free CSR from an undirected edge list (either
// direction, duplicates allowed). Parallel and deterministic.
void build_symmetric_csr(int64_t num_nodes, const std::vector<std::pair<int32_t, int32_t>>& edges, Graph& g);

}  // namespace mlsys::gnn
