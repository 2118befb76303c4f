// .npz graphs (gnn/graph/npz_graph.hpp): every layout written at test time by
// tests/gnn/graph/npz_writer.hpp, the committed fixture of scripts/dev/make_npz_fixture.py, the
// .npy dtypes, and the errors (each names the file and key).
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <sstream>

#include "core/util/error.hpp"
#include "gnn/graph/loaders.hpp"
#include "gnn/graph/npz_graph.hpp"
#include "gnn/graph/source.hpp"
#include "tests/gnn/graph/npz_writer.hpp"

using namespace mlsys;
using namespace mlsys::gnn;
using namespace mlsys::gnn::npztest;
using mlsys::test::TempDir;

namespace {

std::string error_of(const std::function<void()>& f) { return test::thrown_message<InputError>(f); }

GraphOptions options(double train = 0.5, double val = 0.25) {
  GraphOptions o;
  o.sbm.train_fraction = train;
  o.sbm.val_fraction = val;
  return o;
}

Graph from(const std::vector<Member>& m, const GraphOptions& o = options(), uint64_t seed = 7, bool deflated = false) {
  NpzArchive a = NpzArchive::from_bytes(zip(m, deflated), "t.npz");
  return npz_graph(a, nullptr, "t", o, seed);
}

std::string error_from(const std::vector<Member>& m) {
  return error_of([&] { from(m); });
}

// Feature (v, c) whether the graph holds its features dense or (where Graph has them) as CSR rows.
template <class G>
float feature(const G& g, int64_t v, int64_t c) {
  if constexpr (requires { g.feature_indptr; }) {
    if (!g.feature_indptr.empty()) {
      for (int64_t e = g.feature_indptr[v]; e < g.feature_indptr[v + 1]; ++e)
        if (g.feature_indices[e] == c) return g.feature_values[e];
      return 0;
    }
  }
  return g.features[static_cast<size_t>(v * g.feature_dim + c)];
}

template <class G>
bool features_sparse(const G& g) {
  if constexpr (requires { g.feature_indptr; }) return !g.feature_indptr.empty();
  return false;
}

// Values the graph stores for its features: nonzeros when sparse, nodes x features when dense.
template <class G>
size_t stored_feature_values(const G& g) {
  if constexpr (requires { g.feature_values; })
    if (!g.feature_indptr.empty()) return g.feature_values.size();
  return g.features.size();
}

// Whether this build's Graph can hold CSR feature rows.
template <class G>
constexpr bool kHasCsrFeatures = requires(G& g) { g.feature_indptr; };

std::vector<int32_t> neighbours(const Graph& g, int64_t v) {
  return {g.indices.begin() + g.indptr[v], g.indices.begin() + g.indptr[v + 1]};
}

std::vector<Member> with(std::vector<Member> m, const std::string& name, const std::string& bytes) {
  for (auto& x : m)
    if (x.name == name) {
      x.bytes = bytes;
      return m;
    }
  m.push_back({name, bytes});
  return m;
}

std::vector<Member> without(std::vector<Member> m, const std::string& name) {
  m.erase(std::remove_if(m.begin(), m.end(), [&](const Member& x) { return x.name == name; }), m.end());
  return m;
}

void check_two_triangles(const Graph& g) {
  CHECK(g.num_nodes == 6);
  CHECK(g.num_edges() == 14);  // 7 undirected edges stored one way, symmetrized
  CHECK(neighbours(g, 2) == std::vector<int32_t>{0, 1, 3});
  CHECK(neighbours(g, 3) == std::vector<int32_t>{2, 4, 5});
}

}  // namespace

TEST_CASE("npz gnn-benchmark layout: CSR adjacency symmetrized, CSR features summed, labels, configured split") {
  Graph g = from(benchmark_members());
  check_two_triangles(g);
  CHECK(g.name == "t");
  REQUIRE(g.feature_dim == 2);
  CHECK(feature(g, 2, 0) == 1.0f);
  CHECK(feature(g, 2, 1) == 0.5f);  // 0.25 listed twice: summed, as scipy reads duplicates
  CHECK(feature(g, 5, 1) == 2.0f);
  CHECK(feature(g, 0, 1) == 0.0f);
  CHECK(g.num_classes == 2);
  CHECK(g.labels[4] == 1);
  for (int64_t v = 0; v < 6; ++v) CHECK(g.split[v] != static_cast<uint8_t>(Split::None));  // every node labeled
  CHECK(g.count(Split::Train) > 0);
}

TEST_CASE("npz gnn-benchmark layout with a dense attr_matrix, entries deflated") {
  auto m = without(without(without(without(benchmark_members(), "attr_data.npy"), "attr_indices.npy"), "attr_indptr.npy"), "attr_shape.npy");
  m.push_back({"attr_matrix.npy", f8({6, 3}, {1, 0, 0, 1, 0, 0, 1, 0.5, 0, 0, 1, 0, 0, 1, 0, 0, 2, 9})});
  Graph g = from(m, options(), 7, /*deflated=*/true);
  check_two_triangles(g);
  CHECK(g.feature_dim == 3);
  CHECK_FALSE(features_sparse(g));
  CHECK(feature(g, 5, 2) == 9.0f);
  CHECK(feature(g, 2, 1) == 0.5f);
}

TEST_CASE("npz sparse features stay sparse where the graph holds CSR features") {
  // 6 x 100 with 3 entries: far below a tenth nonzero.
  auto m = with(with(with(with(benchmark_members(), "attr_data.npy", f4({3}, {1, 2, 3})), "attr_indices.npy", i4({3}, {99, 5, 50})),
                     "attr_indptr.npy", i4({7}, {0, 1, 1, 1, 1, 1, 3})),
                "attr_shape.npy", i8({2}, {6, 100}));
  Graph g = from(m);
  CHECK(g.feature_dim == 100);
  CHECK(feature(g, 0, 99) == 1.0f);
  CHECK(feature(g, 5, 5) == 2.0f);
  CHECK(feature(g, 5, 50) == 3.0f);
  CHECK(feature(g, 3, 5) == 0.0f);
  if (kHasCsrFeatures<Graph>) {
    CHECK(features_sparse(g));
    CHECK(stored_feature_values(g) == 3);
  } else {
    MESSAGE("this build's Graph holds dense features only: the rows were expanded");
    CHECK(stored_feature_values(g) == 600);
  }
}

TEST_CASE("npz PyG layout: x, edge_index, y with an unlabeled node, boolean masks") {
  Graph g = from(pyg_members());
  check_two_triangles(g);
  CHECK(g.feature_dim == 2);
  CHECK(feature(g, 2, 1) == 0.5f);
  CHECK(g.labels[5] == -1);
  CHECK(g.num_classes == 2);
  const std::vector<uint8_t> want = {1, 2, 3, 2, 1, 0};  // train, val, test as the masks say; node 5 in none
  CHECK(std::vector<uint8_t>(g.split.begin(), g.split.end()) == want);
  // The masks decide: another seed or fractions change nothing.
  Graph h = from(pyg_members(), options(0.9, 0.05), 99);
  CHECK(std::vector<uint8_t>(h.split.begin(), h.split.end()) == want);
}

TEST_CASE("npz row/col layout with one-hot labels, features named 'features' and index lists") {
  std::vector<Member> m = {{"row.npy", i4({7}, {0, 0, 1, 2, 3, 3, 4})},
                           {"col.npy", i4({7}, {1, 2, 2, 3, 4, 5, 5})},
                           {"features.npy", f4({6, 1}, {1, 2, 3, 4, 5, 6})},
                           {"labels.npy", u1({6, 3}, {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0})},
                           {"train_idx.npy", i8({0, 1})},
                           {"val_idx.npy", i8({2})},
                           {"test_idx.npy", i4({2}, {4, 5})}};
  Graph g = from(m);
  check_two_triangles(g);
  CHECK_FALSE(g.multi_label());
  CHECK(g.num_classes == 3);
  CHECK(std::vector<int32_t>(g.labels.begin(), g.labels.end()) == std::vector<int32_t>{0, 1, 2, -1, 0, 1});  // all-zero row: unlabeled
  CHECK(std::vector<uint8_t>(g.split.begin(), g.split.end()) == std::vector<uint8_t>{1, 1, 2, 0, 3, 3});
  CHECK(feature(g, 4, 0) == 5.0f);
}

TEST_CASE("npz N x C labels with several ones per row make a multi-label graph") {
  auto m = with(pyg_members(), "y.npy", b1({6, 3}, {1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1, 1, 1}));
  Graph g = from(m);
  REQUIRE(g.multi_label());
  CHECK(g.num_classes == 3);
  CHECK(g.multi_labels[0 * 3 + 1] == 1);
  CHECK(g.multi_labels[3 * 3 + 1] == 0);
  CHECK(g.labels[4] == 0);  // a labeled observation with no class
}

TEST_CASE("npz without split keys splits the labeled nodes by gnn.graph.train_fraction and the seed") {
  const int64_t n = 400;
  std::vector<int64_t> row, col, y;
  for (int64_t v = 0; v < n; ++v) {
    row.push_back(v);
    col.push_back((v + 1) % n);
    y.push_back(v % 10 == 0 ? -1 : v % 3);
  }
  std::vector<Member> m = {{"row.npy", i8(row)}, {"col.npy", i8(col)}, {"y.npy", i8(y)}};
  Graph g = from(m, options(0.5, 0.25), 3);
  CHECK(g.feature_dim == 0);  // no feature key: a graph without features
  int64_t unlabeled_in_split = 0;
  for (int64_t v = 0; v < n; ++v) unlabeled_in_split += y[v] < 0 && g.split[v] != 0;
  CHECK(unlabeled_in_split == 0);
  const int64_t labeled = n - n / 10;
  CHECK(g.count(Split::Train) + g.count(Split::Val) + g.count(Split::Test) == labeled);
  CHECK(g.count(Split::Train) > labeled * 4 / 10);
  CHECK(g.count(Split::Train) < labeled * 6 / 10);
  CHECK(g.count(Split::Val) > labeled * 15 / 100);
  CHECK(g.count(Split::Val) < labeled * 35 / 100);
  Graph same = from(m, options(0.5, 0.25), 3);
  Graph other = from(m, options(0.5, 0.25), 4);
  CHECK(std::vector<uint8_t>(same.split.begin(), same.split.end()) == std::vector<uint8_t>(g.split.begin(), g.split.end()));
  CHECK(std::vector<uint8_t>(other.split.begin(), other.split.end()) != std::vector<uint8_t>(g.split.begin(), g.split.end()));
  CHECK(error_of([&] { from(m, options(0.0001, 0.25), 3); }).find("train split is empty") != std::string::npos);
}

TEST_CASE("npz Reddit pair (<name>_data.npz + scipy <name>_graph.npz) through the file source") {
  TempDir t;
  write_npz(t / "toy_data.npz", {{"feature.npy", f4({6, 2}, {1, 0, 1, 0, 1, 0.5f, 0, 1, 0, 1, 0, 2})},
                                 {"label.npy", i8({0, 0, 0, 1, 1, 1})},
                                 {"node_types.npy", i4({6}, {1, 2, 3, 3, 2, 1})}});
  // scipy.sparse.save_npz of a CSR matrix; 'format' is a byte string the loader does not need.
  write_npz(t / "toy_graph.npz", {{"indices.npy", i4({7}, {1, 2, 2, 3, 4, 5, 5})},
                                  {"indptr.npy", i4({7}, {0, 2, 3, 4, 6, 7, 7})},
                                  {"format.npy", npy_raw("|S3", {}, "csr")},
                                  {"shape.npy", i8({2}, {6, 6})},
                                  {"data.npy", f4({7}, {1, 1, 1, 1, 1, 1, 1})}},
            /*deflated=*/true);
  GraphOptions o = options();
  o.source = "file";
  o.path = (t / "toy_data.npz").string();
  Graph g = graph_source_registry().create("file")->load(o, 1);
  check_two_triangles(g);
  CHECK(g.name == "toy");
  CHECK(std::vector<uint8_t>(g.split.begin(), g.split.end()) == std::vector<uint8_t>{1, 2, 3, 3, 2, 1});

  std::filesystem::remove(t / "toy_graph.npz");
  CHECK(error_of([&] { load_npz_graph(t / "toy_data.npz", o, 1); }).find("no toy_graph.npz beside it") != std::string::npos);
}

TEST_CASE("npz refuses Fortran order, pickles, strings and unknown dtypes, naming the file and key") {
  auto labels_as = [](const std::string& npy_bytes) { return error_from(with(pyg_members(), "y.npy", npy_bytes)); };
  const std::string eight(8 * 6, '\0');
  CHECK(labels_as(npy_raw("<i8", {6}, eight, /*fortran=*/true)).find("t.npz: y: stored in Fortran (column-major) order") != std::string::npos);
  CHECK(labels_as(npy_raw("|O", {6}, eight)).find("t.npz: y: holds pickled Python objects") != std::string::npos);
  CHECK(labels_as(npy_raw("<i2", {6}, std::string(12, '\0'))).find("t.npz: y: dtype '<i2' is not supported (accepted: <f4 <f8 <i4 <i8 |b1 |u1)") != std::string::npos);
  CHECK(labels_as(npy_raw(">i8", {6}, eight)).find("t.npz: y: big-endian dtype '>i8'") != std::string::npos);
  CHECK(labels_as(npy_raw("<U5", {6}, std::string(120, '\0'))).find("t.npz: y: dtype '<U5' is not supported") != std::string::npos);
  CHECK(labels_as(npy_raw("<i8", {6}, std::string(40, '\0'))).find("t.npz: y: holds 40 data bytes but its shape and dtype <i8 need 48") != std::string::npos);
  std::string structured = npy_raw("<i8", {6}, eight);
  structured.replace(structured.find("'<i8'"), 5, "[('a', '<i8')]");
  CHECK(labels_as(structured).find("t.npz: y: structured dtype") != std::string::npos);
  CHECK(labels_as("not an array").find("t.npz: y: not a .npy array") != std::string::npos);
}

TEST_CASE("npz damaged archives and inconsistent graphs are errors naming the file and key") {
  // Archive damage (tests/core/util/npz_test.cpp has the rest): a damaged member stops the load
  // naming the file and key.
  std::string flipped = zip(pyg_members());
  flipped[flipped.find("\x93NUMPY") + 70] ^= 0x01;  // inside x's header padding: only the CRC tells
  CHECK(error_of([&] { npz_graph(NpzArchive::from_bytes(flipped, "t.npz"), nullptr, "t", options(), 1); }).find("t.npz: x: CRC mismatch") != std::string::npos);
  TempDir t;
  CHECK(error_of([&] { load_npz_graph(t / "missing.npz", options(), 1); }).find("graph file not found") != std::string::npos);

  // Graph content.
  CHECK(error_from(with(pyg_members(), "edge_index.npy", i8({2, 1}, {0, 6}))).find("t.npz: edge_index: edge 0 (0, 6) has a node id outside [0, 6)") != std::string::npos);
  CHECK(error_from(with(pyg_members(), "edge_index.npy", i8({7, 2}, std::vector<int64_t>(14, 0)))).find("t.npz: edge_index: expected shape (2, E)") != std::string::npos);
  CHECK(error_from(without(pyg_members(), "val_mask.npy")).find("t.npz: has split masks but no val (expected val_mask or valid_mask)") != std::string::npos);
  CHECK(error_from(with(pyg_members(), "features.npy", f4({6, 1}, std::vector<float>(6, 1)))).find("t.npz: holds both 'x' and 'features' as the features") != std::string::npos);
  CHECK(error_from(with(pyg_members(), "feat.npy", f4({6, 1}, std::vector<float>(6, 1)))).find("t.npz: holds both 'x' and 'feat' as the features") != std::string::npos);
  CHECK(error_from(without(pyg_members(), "y.npy")).find("t.npz: no labels (expected 'labels', 'label' or 'y'; the archive holds: edge_index, test_mask") != std::string::npos);
  CHECK(error_from(without(pyg_members(), "edge_index.npy")).find("t.npz: no adjacency") != std::string::npos);
  CHECK(error_from(with(pyg_members(), "test_mask.npy", b1({6}, {0, 0, 1, 0, 0, 1}))).find("t.npz: test_mask: node 5 is in a split but unlabeled") != std::string::npos);
  CHECK(error_from(with(pyg_members(), "test_mask.npy", b1({6}, {1, 0, 1, 0, 0, 0}))).find("t.npz: test_mask: node 0 is already in another split") != std::string::npos);
  CHECK(error_from(with(pyg_members(), "train_mask.npy", b1({6, 2}, std::vector<uint8_t>(12, 1)))).find("t.npz: train_mask: holds 2 splits") != std::string::npos);
  CHECK(error_from(with(pyg_members(), "x.npy", f4({6, 1}, {1, 2, 3, std::numeric_limits<float>::quiet_NaN(), 5, 6}))).find("t.npz: x: node 3 feature 0 is nan") != std::string::npos);
  CHECK(error_from(with(pyg_members(), "x.npy", f4({5, 1}, {1, 2, 3, 4, 5}))).find("t.npz: x: has 5 rows for 6 nodes") != std::string::npos);
  CHECK(error_from(with(pyg_members(), "y.npy", i8({0, 0, 0, 1, 1, -2}))).find("t.npz: y: node 5 has label -2") != std::string::npos);
  CHECK(error_from(with(with(pyg_members(), "row.npy", i8({0})), "col.npy", i8({1}))).find("t.npz: holds two adjacencies (edge_index and row/col)") != std::string::npos);
  CHECK(error_from(with(benchmark_members(), "adj_indptr.npy", i4({7}, {0, 2, 1, 4, 6, 7, 7}))).find("t.npz: adj_indptr: decreases at row 1") != std::string::npos);
  CHECK(error_from(with(benchmark_members(), "adj_shape.npy", i8({2}, {6, 7}))).find("t.npz: adj_shape: adjacency is 6 x 7 for 6 nodes") != std::string::npos);
  CHECK(error_from(without(benchmark_members(), "attr_shape.npy")).find("t.npz: attr_shape: is missing") != std::string::npos);
}

TEST_CASE("npz committed fixture (scripts/dev/make_npz_fixture.py: deflated, ZIP64 local headers) loads") {
  const auto file = mlsys::test::source_dir() / "tests/gnn/graph/fixtures/gnn_benchmark_tiny.npz";
  Graph g = load_npz_graph(file, options(0.5, 0.25), 11);
  CHECK(g.name == "gnn_benchmark_tiny");
  CHECK(g.num_nodes == 8);
  // Two 4-cycles joined by 3-4: 9 undirected edges (the duplicate 3-4, the self loop 5-5 and the
  // zero-weight 0-2 add none).
  CHECK(g.num_edges() == 18);
  CHECK(neighbours(g, 0) == std::vector<int32_t>{1, 3});
  CHECK(neighbours(g, 4) == std::vector<int32_t>{3, 5, 7});
  CHECK(neighbours(g, 5) == std::vector<int32_t>{4, 6});
  CHECK(g.feature_dim == 5);
  CHECK(feature(g, 0, 0) == 2.0f);
  CHECK(feature(g, 0, 3) == 1.0f);
  CHECK(feature(g, 6, 2) == 3.0f);
  CHECK(feature(g, 3, 1) == 0.0f);
  CHECK(g.num_classes == 3);
  CHECK(std::vector<int32_t>(g.labels.begin(), g.labels.end()) == std::vector<int32_t>{0, 0, 1, 1, 2, 2, 2, 0});
  NpzArchive a = NpzArchive::open(file);
  CHECK(a.keys().size() == 10);
  CHECK(error_of([&] { a.array("idx_to_node"); }).find("idx_to_node: holds pickled Python objects") != std::string::npos);
}

namespace {

// A loaded graph written back in the gnn-benchmark layout, with its split as masks (deflated).
void write_benchmark_npz(const Graph& g, const std::filesystem::path& file) {
  const int64_t n = g.num_nodes, f = g.feature_dim;
  std::vector<int64_t> indptr(g.indptr.begin(), g.indptr.end()), attr_ptr{0};
  std::vector<int32_t> indices(g.indices.begin(), g.indices.end()), attr_idx, labels(g.labels.begin(), g.labels.end());
  std::vector<float> attr_val;
  for (int64_t v = 0; v < n; ++v) {
    for (int64_t c = 0; c < f; ++c)
      if (float x = feature(g, v, c); x != 0) {
        attr_idx.push_back(static_cast<int32_t>(c));
        attr_val.push_back(x);
      }
    attr_ptr.push_back(static_cast<int64_t>(attr_idx.size()));
  }
  std::vector<uint8_t> masks[3];
  for (int k = 0; k < 3; ++k)
    for (int64_t v = 0; v < n; ++v) masks[k].push_back(g.split[v] == k + 1);
  const int64_t m = static_cast<int64_t>(attr_idx.size());
  write_npz(file,
            {{"adj_indptr.npy", i8(indptr)},
             {"adj_indices.npy", i4({g.num_edges()}, indices)},
             {"adj_shape.npy", i8({2}, {n, n})},
             {"attr_indptr.npy", i8(attr_ptr)},
             {"attr_indices.npy", i4({m}, attr_idx)},
             {"attr_data.npy", f4({m}, attr_val)},
             {"attr_shape.npy", i8({2}, {n, f})},
             {"labels.npy", i4({n}, labels)},
             {"train_mask.npy", b1({n}, masks[0])},
             {"val_mask.npy", b1({n}, masks[1])},
             {"test_mask.npy", b1({n}, masks[2])}},
            /*deflated=*/true);
}

std::vector<std::string> csv_column(const std::string& csv, const std::string& name) {
  std::vector<std::string> out;
  std::istringstream in(csv);
  std::string line;
  int col = -1;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::istringstream ls(line);
    for (std::string c; std::getline(ls, c, ',');) cells.push_back(c);
    if (col < 0) {
      col = static_cast<int>(std::find(cells.begin(), cells.end(), name) - cells.begin());
      continue;
    }
    if (col < static_cast<int>(cells.size())) out.push_back(cells[col]);
  }
  return out;
}

}  // namespace

TEST_CASE("npz: the shared Cora written as a gnn-benchmark .npz loads as the text folder does and trains alike") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  TempDir t;
  const Graph text = load_text_graph(data / "graphs/cora");
  write_benchmark_npz(text, t / "cora.npz");
  const Graph g = load_npz_graph(t / "cora.npz", options(), 1);
  CHECK(g.num_nodes == text.num_nodes);
  CHECK(std::vector<int64_t>(g.indptr.begin(), g.indptr.end()) == std::vector<int64_t>(text.indptr.begin(), text.indptr.end()));
  CHECK(std::vector<int32_t>(g.indices.begin(), g.indices.end()) == std::vector<int32_t>(text.indices.begin(), text.indices.end()));
  CHECK(std::vector<int32_t>(g.labels.begin(), g.labels.end()) == std::vector<int32_t>(text.labels.begin(), text.labels.end()));
  CHECK(std::vector<uint8_t>(g.split.begin(), g.split.end()) == std::vector<uint8_t>(text.split.begin(), text.split.end()));
  CHECK(g.num_classes == text.num_classes);
  REQUIRE(g.feature_dim == text.feature_dim);
  CHECK(features_sparse(g) == features_sparse(text));  // the same density rule as the text loader
  int64_t differ = 0;
  for (int64_t v = 0; v < g.num_nodes; ++v)
    for (int64_t c = 0; c < g.feature_dim; ++c) differ += feature(g, v, c) != feature(text, v, c);
  CHECK(differ == 0);

  // Through the command: --graph FILE.npz (the file source) trains as the text folder does.
  const std::string common = " --epochs 5 --set gnn.graph.binary_cache=false --set gnn.graph.cache_dir=" + (t / "cache").string();
  auto a = mlsys::test::run_mlsys("train-gnn --out " + (t / "a").string() + " --set gnn.graph.source=file --graph " + (t / "cora.npz").string() + common);
  auto b = mlsys::test::run_mlsys("train-gnn --out " + (t / "b").string() + " --set gnn.graph.source=file --graph " + (data / "graphs/cora").string() + common);
  INFO(a.err);
  REQUIRE(a.exit_code == 0);
  REQUIRE(b.exit_code == 0);
  const auto loss = csv_column(mlsys::test::read_text(t / "a/epochs.csv"), "loss");
  CHECK(loss.size() == 5);
  CHECK(loss == csv_column(mlsys::test::read_text(t / "b/epochs.csv"), "loss"));
}

TEST_CASE("npz graphs in the shared data load") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  std::vector<std::filesystem::path> files;
  if (std::filesystem::is_directory(data / "graphs"))
    for (const auto& e : std::filesystem::recursive_directory_iterator(data / "graphs"))
      if (e.is_regular_file() && e.path().extension() == ".npz" && !e.path().stem().string().ends_with("_graph")) files.push_back(e.path());
  if (files.empty()) MLSYS_SKIP("no-shared-data", "no .npz graph under " << (data / "graphs").string());
  for (const auto& f : files) {
    CAPTURE(f.string());
    Graph g = load_npz_graph(f, options(0.1, 0.2), 1);
    CHECK(g.num_nodes > 0);
    CHECK(g.count(Split::Train) > 0);
  }
}
