#include "gnn/graph/npz_graph.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "core/log/log.hpp"
#include "core/util/error.hpp"
#include "gnn/graph/generators.hpp"

namespace mlsys::gnn {

namespace fs = std::filesystem;

namespace {

// Sparse feature rows stay sparse unless a tenth or more of the entries are nonzero (the text
// loader's rule: the sparse form then saves little and the dense kernels are faster).
constexpr int64_t kDenseFromDensity = 10;
// Builds whose Graph holds dense features only expand sparse rows; past this many elements
// (512 MiB) they refuse rather than allocate what a damaged shape claims.
constexpr int64_t kMaxExpanded = int64_t{1} << 27;

// The archive's integer arrays and the rule each is read with (core/util/number_parse.hpp). Ids,
// row pointers, shapes and node types are never boolean arrays: a bool edge_index would read as
// node ids 0 and 1. Bounds that depend on the graph (ids below the node count) are checked where
// the count is known, with messages naming the edge or entry.
constexpr IntRule kRowPointers{"row pointers", 0, int64_t{1} << 46};
constexpr IntRule kIds{"ids"};
constexpr IntRule kShape{"shape", 0, int64_t{1} << 46};
constexpr IntRule kNodeTypes{"node_types", 0, 3};  // 0 none, 1 train, 2 val, 3 test

[[noreturn]] void fail(const NpzArchive& a, const std::string& key, const std::string& msg) {
  throw InputError(fmt::format("{}: {}: {}", a.name(), key, msg));
}

std::string list_keys(const NpzArchive& a) {
  std::string s;
  for (const auto& k : a.keys()) s += (s.empty() ? "" : ", ") + k;
  return s.empty() ? "none" : s;
}

// The one of `names` that `a` holds ("" when none); two of them would make the choice silent.
std::string pick(const NpzArchive& a, const std::vector<const char*>& names, const char* what) {
  std::string found;
  for (const char* k : names)
    if (a.has(k)) {
      if (!found.empty()) throw InputError(fmt::format("{}: holds both '{}' and '{}' as the {}: keep one", a.name(), found, k, what));
      found = k;
    }
  return found;
}

// A vector: shape (n,) or (n, 1); n < 0 takes any length.
void check_vector(const NpzArchive& a, const std::string& key, const NpyArray& x, int64_t n) {
  const bool column = x.shape.size() == 2 && x.shape[1] == 1;
  if (x.shape.size() != 1 && !column) fail(a, key, fmt::format("expected a vector, got shape ({})", fmt::join(x.shape, ", ")));
  if (n >= 0 && x.shape[0] != n) fail(a, key, fmt::format("has {} entries, expected {}", x.shape[0], n));
}
NpyArray per_node(const NpzArchive& a, const std::string& key, int64_t n) {
  NpyArray x = a.array(key);
  check_vector(a, key, x, n);
  return x;
}

// A CSR matrix stored as <prefix>indptr, <prefix>indices, optional <prefix>data and <prefix>shape.
struct Csr {
  int64_t rows = 0, cols = -1;  // cols -1: no shape key
  std::vector<int64_t> indptr, indices;
  NpyArray data;  // empty when the archive has no <prefix>data (every entry is 1)
  bool has_data = false;
  double value(int64_t e) const { return has_data ? data.value(e) : 1.0; }
};

Csr read_csr(const NpzArchive& a, const std::string& p) {
  Csr m;
  m.indptr = per_node(a, p + "indptr", -1).ints(kRowPointers);
  m.indices = per_node(a, p + "indices", -1).ints(kIds);
  m.rows = static_cast<int64_t>(m.indptr.size()) - 1;
  if (m.rows < 0) fail(a, p + "indptr", "is empty (a CSR row pointer has rows + 1 entries)");
  if (a.has(p + "shape")) {
    auto s = a.array(p + "shape").ints(kShape);
    if (s.size() != 2 || s[0] < 0 || s[1] < 0) fail(a, p + "shape", "expected two non-negative sizes (rows, columns)");
    if (s[0] != m.rows) fail(a, p + "shape", fmt::format("says {} rows but {}indptr has {}", s[0], p, m.rows));
    m.cols = s[1];
  }
  if (m.indptr[0] != 0 || m.indptr[m.rows] != static_cast<int64_t>(m.indices.size()))
    fail(a, p + "indptr", fmt::format("must run from 0 to the {} entries of {}indices", m.indices.size(), p));
  for (int64_t r = 0; r < m.rows; ++r)
    if (m.indptr[r + 1] < m.indptr[r]) fail(a, p + "indptr", fmt::format("decreases at row {}", r));
  for (size_t e = 0; e < m.indices.size(); ++e)
    if (m.indices[e] < 0 || (m.cols >= 0 && m.indices[e] >= m.cols))
      fail(a, p + "indices", fmt::format("entry {} is column {}, outside [0, {})", e, m.indices[e], m.cols));
  if (a.has(p + "data")) {
    m.data = per_node(a, p + "data", static_cast<int64_t>(m.indices.size()));
    m.has_data = true;
  }
  return m;
}

// ---- adjacency -------------------------------------------------------------------------------

// The adjacency layouts, as the keys that announce them.
enum class AdjLayout { none, benchmark_csr, edge_index, row_col, scipy_csr };

AdjLayout adjacency_layout(const NpzArchive& a) {
  std::vector<std::pair<AdjLayout, const char*>> found;
  if (a.has("adj_indptr")) found.emplace_back(AdjLayout::benchmark_csr, "adj_indptr/adj_indices");
  if (a.has("edge_index")) found.emplace_back(AdjLayout::edge_index, "edge_index");
  if (a.has("row") && a.has("col")) found.emplace_back(AdjLayout::row_col, "row/col");
  if (a.has("indptr") && a.has("indices")) found.emplace_back(AdjLayout::scipy_csr, "indptr/indices");
  if (found.size() > 1)
    throw InputError(fmt::format("{}: holds two adjacencies ({} and {}): keep one", a.name(), found[0].second, found[1].second));
  return found.empty() ? AdjLayout::none : found[0].first;
}

// Directed entries (u, v) of the stored adjacency; weights are dropped, explicit zeros skipped.
// build_symmetric_csr then symmetrizes (a CSC matrix is its transpose: the same graph) and drops
// self loops and duplicates.
std::vector<std::pair<int32_t, int32_t>> read_edges(const NpzArchive& a, AdjLayout layout, int64_t n) {
  std::vector<std::pair<int32_t, int32_t>> edges;
  auto check = [&](const std::string& key, int64_t e, int64_t u, int64_t v) {
    if (u < 0 || u >= n || v < 0 || v >= n) fail(a, key, fmt::format("edge {} ({}, {}) has a node id outside [0, {})", e, u, v, n));
  };
  if (layout == AdjLayout::benchmark_csr || layout == AdjLayout::scipy_csr) {
    const std::string p = layout == AdjLayout::benchmark_csr ? "adj_" : "";
    Csr m = read_csr(a, p);
    if (m.rows != n) fail(a, p + "indptr", fmt::format("has {} rows for {} nodes", m.rows, n));
    if (m.cols >= 0 && m.cols != n) fail(a, p + "shape", fmt::format("adjacency is {} x {} for {} nodes (must be square)", m.rows, m.cols, n));
    edges.reserve(m.indices.size());
    for (int64_t u = 0; u < m.rows; ++u)
      for (int64_t e = m.indptr[u]; e < m.indptr[u + 1]; ++e) {
        check(p + "indices", e, u, m.indices[e]);
        if (m.value(e) != 0) edges.emplace_back(static_cast<int32_t>(u), static_cast<int32_t>(m.indices[e]));
      }
    return edges;
  }
  if (layout == AdjLayout::edge_index) {
    NpyArray x = a.array("edge_index");
    if (x.shape.size() != 2 || x.shape[0] != 2)
      fail(a, "edge_index", fmt::format("expected shape (2, E) as PyG stores it, got ({}); save edge_index.T if it is (E, 2)",
                                         fmt::join(x.shape, ", ")));
    const int64_t m = x.shape[1];
    const std::vector<int64_t> v = x.ints(kIds);
    edges.reserve(static_cast<size_t>(m));
    for (int64_t e = 0; e < m; ++e) {
      check("edge_index", e, v[e], v[m + e]);
      edges.emplace_back(static_cast<int32_t>(v[e]), static_cast<int32_t>(v[m + e]));
    }
    return edges;
  }
  // row/col (PyG/DGL exports, scipy COO), with optional data.
  const std::vector<int64_t> r = per_node(a, "row", -1).ints(kIds);
  const std::vector<int64_t> c = per_node(a, "col", static_cast<int64_t>(r.size())).ints(kIds);
  NpyArray w;
  const bool weighted = a.has("data");
  if (weighted) w = per_node(a, "data", static_cast<int64_t>(r.size()));
  if (a.has("shape")) {
    auto s = a.array("shape").ints(kShape);
    if (s.size() != 2 || s[0] != n || s[1] != n) fail(a, "shape", fmt::format("expected ({}, {}) for {} nodes", n, n, n));
  }
  edges.reserve(r.size());
  for (size_t e = 0; e < r.size(); ++e) {
    check("row/col", static_cast<int64_t>(e), r[e], c[e]);
    if (!weighted || w.value(static_cast<int64_t>(e)) != 0) edges.emplace_back(static_cast<int32_t>(r[e]), static_cast<int32_t>(c[e]));
  }
  return edges;
}

// ---- labels ----------------------------------------------------------------------------------

// Labels as one class per node (-1 = unlabeled), or an N x C 0/1 matrix: one-hot rows give one
// class (an all-zero row: unlabeled), rows with several ones make the graph multi-label.
void read_labels(const NpzArchive& a, Graph& g) {
  const std::string key = pick(a, {"labels", "label", "y"}, "labels");
  if (key.empty()) {
    if (a.has("labels_indptr"))
      throw InputError(a.name() + ": sparse labels (labels_indptr/labels_indices) are not supported: save the labels as one class per node or a dense N x C 0/1 matrix");
    throw InputError(fmt::format("{}: no labels (expected 'labels', 'label' or 'y'; the archive holds: {})", a.name(), list_keys(a)));
  }
  NpyArray y = a.array(key);
  if (y.shape.empty() || y.shape.size() > 2) fail(a, key, fmt::format("expected shape (N,) or (N, C), got ({})", fmt::join(y.shape, ", ")));
  const int64_t n = y.shape[0];
  if (n <= 0 || n > INT32_MAX) fail(a, key, fmt::format("{} nodes: must be in [1, 2^31)", n));
  g.num_nodes = n;
  std::vector<int32_t> labels(static_cast<size_t>(n), -1);
  if (y.shape.size() == 1 || y.shape[1] == 1) {
    const std::vector<int64_t> v = y.ints();
    int64_t classes = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (v[i] < -1 || v[i] >= INT32_MAX) fail(a, key, fmt::format("node {} has label {} (classes count from 0; -1 = unlabeled)", i, v[i]));
      labels[i] = static_cast<int32_t>(v[i]);
      classes = std::max(classes, v[i] + 1);
    }
    if (classes == 0) fail(a, key, "no node is labeled");
    g.num_classes = static_cast<int32_t>(classes);
    g.labels = Array<int32_t>(std::move(labels));
    return;
  }
  const int64_t c = y.shape[1];
  if (c > INT32_MAX) fail(a, key, "too many classes");
  std::vector<uint8_t> m(static_cast<size_t>(n * c));
  bool multi = false;
  for (int64_t i = 0; i < n; ++i) {
    int64_t ones = 0;
    for (int64_t k = 0; k < c; ++k) {
      const double x = y.value(i * c + k);
      if (x != 0 && x != 1) fail(a, key, fmt::format("node {} class {} is {}: an N x C label matrix holds 0 or 1", i, k, x));
      m[i * c + k] = x == 1;
      if (x == 1) {
        labels[i] = static_cast<int32_t>(k);
        ++ones;
      }
    }
    multi |= ones > 1;
  }
  g.num_classes = static_cast<int32_t>(c);
  if (multi) {
    std::fill(labels.begin(), labels.end(), 0);  // every row is an observation (an all-zero row: no class applies)
    g.multi_labels = Array<uint8_t>(std::move(m));
  }
  g.labels = Array<int32_t>(std::move(labels));
}

// ---- features --------------------------------------------------------------------------------

void read_dense_features(const NpzArchive& a, const std::string& key, Graph& g) {
  NpyArray x = a.array(key);
  if (x.shape.size() != 2) fail(a, key, fmt::format("expected an N x F matrix, got shape ({})", fmt::join(x.shape, ", ")));
  if (x.shape[0] != g.num_nodes) fail(a, key, fmt::format("has {} rows for {} nodes", x.shape[0], g.num_nodes));
  const int64_t f = x.shape[1], n = g.num_nodes;
  std::vector<float> v(static_cast<size_t>(n * f));
  for (int64_t i = 0; i < n * f; ++i) {
    v[i] = static_cast<float>(x.value(i));
    if (!std::isfinite(v[i])) fail(a, key, fmt::format("node {} feature {} is {}", i / f, i % f, x.value(i)));
  }
  g.feature_dim = f;
  if (f > 0) g.features = Array<float>(std::move(v));
}

// Stores CSR feature rows: sparse where the Graph type holds sparse features and the rows are
// sparse enough, dense otherwise. (The `requires` test lets this file build against a Graph with
// or without the CSR feature arrays.)
template <class G>
void store_feature_rows(G& g, int64_t f, std::vector<int64_t>&& rp, std::vector<int32_t>&& ci, std::vector<float>&& cv,
                        const std::string& where) {
  const int64_t n = g.num_nodes;
  g.feature_dim = f;
  if (f == 0) return;
  const bool sparse = static_cast<int64_t>(ci.size()) < n * f / kDenseFromDensity;
  if constexpr (requires(G& x) { x.feature_indptr = Array<int64_t>(); }) {
    if (sparse) {
      g.feature_indptr = Array<int64_t>(std::move(rp));
      g.feature_indices = Array<int32_t>(std::move(ci));
      g.feature_values = Array<float>(std::move(cv));
      return;
    }
  } else if (sparse) {
    if (n * f > kMaxExpanded)
      throw InputError(fmt::format("{}: sparse features of {} x {} are too large to expand in this build (its graphs hold dense features only)",
                                   where, n, f));
    log::info("graph: {}: sparse features expanded to dense (this build's graphs hold dense features only)", where);
  }
  std::vector<float> x(static_cast<size_t>(n * f), 0.0f);
  for (int64_t v = 0; v < n; ++v)
    for (int64_t e = rp[v]; e < rp[v + 1]; ++e) x[static_cast<size_t>(v * f + ci[e])] = cv[e];
  g.features = Array<float>(std::move(x));
}

// gnn-benchmark attr_* CSR: columns sorted per row, duplicates summed (scipy's meaning), zeros dropped.
void read_sparse_features(const NpzArchive& a, Graph& g) {
  Csr m = read_csr(a, "attr_");
  if (m.rows != g.num_nodes) fail(a, "attr_indptr", fmt::format("has {} rows for {} nodes", m.rows, g.num_nodes));
  if (m.cols < 0) fail(a, "attr_shape", "is missing (the feature count)");
  if (m.cols > INT32_MAX) fail(a, "attr_shape", "too many feature columns");
  std::vector<int64_t> rp(static_cast<size_t>(m.rows) + 1, 0);
  std::vector<int32_t> ci;
  std::vector<float> cv;
  ci.reserve(m.indices.size());
  cv.reserve(m.indices.size());
  std::vector<std::pair<int32_t, float>> row;
  for (int64_t v = 0; v < m.rows; ++v) {
    row.clear();
    for (int64_t e = m.indptr[v]; e < m.indptr[v + 1]; ++e) {
      const double x = m.value(e);
      if (!std::isfinite(x) || !std::isfinite(static_cast<float>(x)))
        fail(a, m.has_data ? "attr_data" : "attr_indices", fmt::format("node {} feature {} is {}", v, m.indices[e], x));
      row.emplace_back(static_cast<int32_t>(m.indices[e]), static_cast<float>(x));
    }
    std::sort(row.begin(), row.end(), [](const auto& p, const auto& q) { return p.first < q.first; });
    for (size_t k = 0; k < row.size();) {
      float sum = 0;
      size_t j = k;
      for (; j < row.size() && row[j].first == row[k].first; ++j) sum += row[j].second;
      if (sum != 0) {
        ci.push_back(row[k].first);
        cv.push_back(sum);
      }
      k = j;
    }
    rp[v + 1] = static_cast<int64_t>(ci.size());
  }
  store_feature_rows(g, m.cols, std::move(rp), std::move(ci), std::move(cv), a.name() + ": attr_*");
}

void read_features(const NpzArchive& a, Graph& g) {
  const std::string dense = pick(a, {"x", "features", "feature", "feat", "attr_matrix"}, "features");
  const bool sparse = a.has("attr_indptr");
  if (!dense.empty() && sparse) throw InputError(fmt::format("{}: holds both '{}' and attr_indptr as the features: keep one", a.name(), dense));
  if (sparse) read_sparse_features(a, g);
  else if (!dense.empty()) read_dense_features(a, dense, g);
  // else: a graph without features (as a text graph without features.txt)
}

// ---- split -----------------------------------------------------------------------------------

// The split keys a file may carry, one naming scheme each: boolean masks, node id lists, or
// Reddit's node_types (1 train, 2 val, 3 test).
struct SplitScheme {
  const char* what;
  bool ids;  // node id lists rather than per-node masks
  std::vector<const char*> names[3];  // train, val, test
};
const SplitScheme kSchemes[] = {
    {"masks", false, {{"train_mask"}, {"val_mask", "valid_mask"}, {"test_mask"}}},
    {"index lists", true, {{"train_idx", "train_index"}, {"val_idx", "valid_idx", "val_index"}, {"test_idx", "test_index"}}},
};

void read_split(const NpzArchive& a, Graph& g, const GraphOptions& o, uint64_t seed) {
  const int64_t n = g.num_nodes;
  std::vector<uint8_t> s(static_cast<size_t>(n), 0);
  const Split kinds[3] = {Split::Train, Split::Val, Split::Test};
  auto mark = [&](const std::string& key, int64_t v, Split k) {
    if (s[v] != 0 && s[v] != static_cast<uint8_t>(k)) fail(a, key, fmt::format("node {} is already in another split", v));
    if (g.labels[v] < 0) fail(a, key, fmt::format("node {} is in a split but unlabeled", v));
    s[v] = static_cast<uint8_t>(k);
  };
  std::string used;  // the scheme found
  for (const SplitScheme& sc : kSchemes) {
    std::string keys[3];
    int present = 0;
    for (int i = 0; i < 3; ++i) {
      keys[i] = pick(a, sc.names[i], "split");
      present += !keys[i].empty();
    }
    if (present == 0) continue;
    if (!used.empty()) throw InputError(fmt::format("{}: holds both split {} and {}: keep one", a.name(), used, sc.what));
    used = sc.what;
    for (int i = 0; i < 3; ++i)
      if (keys[i].empty())
        throw InputError(fmt::format("{}: has split {} but no {} (expected {})", a.name(), sc.what, i == 0 ? "train" : i == 1 ? "val" : "test",
                                     fmt::join(sc.names[i], " or ")));
    for (int i = 0; i < 3; ++i) {
      NpyArray x = a.array(keys[i]);
      if (!sc.ids && x.shape.size() == 2 && x.shape[1] > 1)
        fail(a, keys[i], fmt::format("holds {} splits (shape ({}, {})): save the one to train on as a 1-D mask", x.shape[1], x.shape[0], x.shape[1]));
      check_vector(a, keys[i], x, sc.ids ? -1 : n);
      const std::vector<int64_t> v = sc.ids ? x.ints(kIds) : x.ints();  // masks may be boolean
      int64_t count = 0;
      for (size_t j = 0; j < v.size(); ++j) {
        if (sc.ids) {
          if (v[j] < 0 || v[j] >= n) fail(a, keys[i], fmt::format("entry {} is node {}, outside [0, {})", j, v[j], n));
          mark(keys[i], v[j], kinds[i]);
          ++count;
        } else if (v[j] != 0) {
          mark(keys[i], static_cast<int64_t>(j), kinds[i]);
          ++count;
        }
      }
      if (count == 0) fail(a, keys[i], "selects no node (every split must be non-empty)");
    }
  }
  if (a.has("node_types")) {
    if (!used.empty()) throw InputError(fmt::format("{}: holds both split {} and node_types: keep one", a.name(), used));
    used = "node_types";
    const std::vector<int64_t> v = per_node(a, "node_types", n).ints(kNodeTypes);
    for (int64_t j = 0; j < n; ++j) {
      if (v[j] < 0 || v[j] > 3) fail(a, "node_types", fmt::format("node {} has type {} (1 train, 2 val, 3 test, 0 none)", j, v[j]));
      if (v[j] > 0) mark("node_types", j, kinds[v[j] - 1]);
    }
  }
  if (used.empty()) {
    s = random_split(n, o.sbm.train_fraction, o.sbm.val_fraction, seed);
    for (int64_t v = 0; v < n; ++v)
      if (g.labels[v] < 0) s[v] = static_cast<uint8_t>(Split::None);
    log::info("graph: {} has no split keys: split {:.2f}/{:.2f}/rest of the labeled nodes (gnn.graph.train_fraction, val_fraction; seed {})",
              a.name(), o.sbm.train_fraction, o.sbm.val_fraction, seed);
  }
  g.split = Array<uint8_t>(std::move(s));
  for (auto [k, w] : {std::pair{Split::Train, "train"}, {Split::Val, "val"}, {Split::Test, "test"}})
    if (g.count(k) == 0 && (!used.empty() || k == Split::Train))
      throw InputError(fmt::format("{}: the {} split is empty{}", a.name(), w,
                                   used.empty() ? " (raise gnn.graph.train_fraction, or add train/val/test masks)" : ""));
}

}  // namespace

Graph npz_graph(const NpzArchive& a, const NpzArchive* adjacency, const std::string& name, const GraphOptions& o, uint64_t seed) {
  Graph g;
  read_labels(a, g);  // fixes the node count every other array is checked against
  const int64_t n = g.num_nodes;
  const NpzArchive& adj = adjacency ? *adjacency : a;
  const AdjLayout layout = adjacency_layout(adj);
  if (adjacency && adjacency_layout(a) != AdjLayout::none)
    throw InputError(fmt::format("{}: holds an adjacency, and so does {}: keep one", a.name(), adjacency->name()));
  if (layout == AdjLayout::none)
    throw InputError(fmt::format("{}: no adjacency (expected adj_indptr/adj_indices, edge_index, row/col or indptr/indices; the archive holds: {})",
                                 adj.name(), list_keys(adj)));
  build_symmetric_csr(n, read_edges(adj, layout, n), g);
  read_features(a, g);
  read_split(a, g, o, seed);
  g.name = name;
  g.validate(a.name());
  return g;
}

Graph load_npz_graph(const fs::path& file, const GraphOptions& o, uint64_t seed) {
  if (!fs::is_regular_file(file)) throw InputError("graph file not found: " + file.string());
  NpzArchive a = NpzArchive::open(file);
  std::string name = file.stem().string();
  // Reddit as PyG and DGL ship it: <name>_data.npz (features, labels, node_types) beside a
  // scipy.sparse <name>_graph.npz.
  std::unique_ptr<NpzArchive> companion;
  if (adjacency_layout(a) == AdjLayout::none && name.size() > 5 && name.ends_with("_data")) {
    name.resize(name.size() - 5);
    const fs::path other = file.parent_path() / (name + "_graph.npz");
    if (!fs::exists(other))
      throw InputError(fmt::format("{}: no adjacency in the file and no {} beside it (a <name>_data.npz takes its graph from <name>_graph.npz)",
                                   file.string(), other.filename().string()));
    companion = std::make_unique<NpzArchive>(NpzArchive::open(other));
    log::info("graph: adjacency from {}", other.string());
  }
  return npz_graph(a, companion.get(), name, o, seed);
}

}  // namespace mlsys::gnn
