#pragma once
// The graph layouts the .npz graph tests write (core's archive writer: tests/core/util/npz_writer.hpp).
#include <cstdint>
#include <vector>

#include "tests/core/util/npz_writer.hpp"

namespace mlsys::gnn::npztest {

using namespace mlsys::npztest;

// The 6-node graph of the text tests (two triangles joined by edge 2-3), one direction per edge.
inline const std::vector<int64_t> kRows = {0, 0, 1, 2, 3, 3, 4};
inline const std::vector<int64_t> kCols = {1, 2, 2, 3, 4, 5, 5};

// gnn-benchmark layout (Shchur et al.): adjacency and features as CSR, labels per node.
// Feature row 2 lists column 1 before column 0 and repeats column 1 (0.25 + 0.25: scipy sums).
inline std::vector<Member> benchmark_members() {
  return {{"adj_data.npy", f4({7}, {1, 1, 1, 1, 1, 1, 1})},
          {"adj_indices.npy", i4({7}, {1, 2, 2, 3, 4, 5, 5})},
          {"adj_indptr.npy", i4({7}, {0, 2, 3, 4, 6, 7, 7})},
          {"adj_shape.npy", i8({2}, {6, 6})},
          {"attr_data.npy", f4({8}, {1, 1, 0.25f, 1, 0.25f, 1, 1, 2})},
          {"attr_indices.npy", i4({8}, {0, 0, 1, 0, 1, 1, 1, 1})},
          {"attr_indptr.npy", i4({7}, {0, 1, 2, 5, 6, 7, 8})},
          {"attr_shape.npy", i8({2}, {6, 2})},
          {"labels.npy", i8({0, 0, 0, 1, 1, 1})},
          // gnn-benchmark files also carry pickled name tables; a loader never reads them.
          {"idx_to_node.npy", npy_raw("|O", {6}, std::string(48, '\0'))}};
}

// PyG export: dense x, edge_index (2 x E), y, boolean masks.
inline std::vector<Member> pyg_members() {
  std::vector<int64_t> ei = kRows;
  ei.insert(ei.end(), kCols.begin(), kCols.end());
  return {{"x.npy", f4({6, 2}, {1, 0, 1, 0, 1, 0.5f, 0, 1, 0, 1, 0, 2})},
          {"edge_index.npy", i8({2, 7}, ei)},
          {"y.npy", i8({0, 0, 0, 1, 1, -1})},
          {"train_mask.npy", b1({6}, {1, 0, 0, 0, 1, 0})},
          {"val_mask.npy", b1({6}, {0, 1, 0, 1, 0, 0})},
          {"test_mask.npy", b1({6}, {0, 0, 1, 0, 0, 0})}};
}

}  // namespace mlsys::gnn::npztest
