#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>

#include "core/util/error.hpp"
#include "gnn/graph/source.hpp"
#include "tests/gnn/gnn_test_util.hpp"

using namespace mlsys;
using namespace mlsys::gnn;
using mlsys::test::TempDir;
using mlsys::test::write_text;

static std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("text graph loads symmetric CSR, features, labels and split") {
  TempDir t;
  gnntest::write_tiny_text_graph(t / "tiny");
  Graph g = load_text_graph(t / "tiny");
  CHECK(g.num_nodes == 6);
  CHECK(g.num_edges() == 14);  // 7 undirected edges, both directions
  CHECK(g.degree(2) == 3);
  CHECK(g.degree(3) == 3);
  CHECK(g.feature_dim == 2);
  CHECK(g.features[2 * 2 + 1] == doctest::Approx(0.5));
  CHECK(g.num_classes == 2);
  CHECK(g.labels[4] == 1);
  CHECK(g.count(Split::Train) == 2);
  CHECK(g.count(Split::Test) == 2);
  // Symmetry: v in row u <=> u in row v.
  for (int64_t u = 0; u < g.num_nodes; ++u)
    for (int64_t e = g.indptr[u]; e < g.indptr[u + 1]; ++e) {
      int32_t v = g.indices[e];
      bool back = false;
      for (int64_t f = g.indptr[v]; f < g.indptr[v + 1]; ++f) back |= g.indices[f] == u;
      CHECK(back);
    }
}

TEST_CASE("bad text input names the file and line") {
  TempDir t;
  auto dir = t / "bad";
  gnntest::write_tiny_text_graph(dir);
  write_text(dir / "edges.txt", "0 1\n0 9\n");
  CHECK(error_of([&] { load_text_graph(dir); }).find("edges.txt:2: node id out of range") != std::string::npos);

  gnntest::write_tiny_text_graph(dir);
  write_text(dir / "features.txt", "6 2\n0 2 0:1\n");
  CHECK(error_of([&] { load_text_graph(dir); }).find("features.txt:2: ragged row") != std::string::npos);

  gnntest::write_tiny_text_graph(dir);
  write_text(dir / "labels.txt", "0 0\n1 5\n");
  CHECK(error_of([&] { load_text_graph(dir); }).find("labels.txt:2: label 5 outside") != std::string::npos);

  gnntest::write_tiny_text_graph(dir);
  write_text(dir / "split.txt", "0 train\n1 val\n");
  CHECK(error_of([&] { load_text_graph(dir); }).find("the test split is empty") != std::string::npos);

  gnntest::write_tiny_text_graph(dir);
  std::filesystem::remove(dir / "labels.txt");
  CHECK(error_of([&] { load_text_graph(dir); }).find("missing file") != std::string::npos);

  gnntest::write_tiny_text_graph(dir);
  write_text(dir / "edges.txt", "0 x\n");
  CHECK(error_of([&] { load_text_graph(dir); }).find("edges.txt:1: field 'target id' = 'x': not a number") != std::string::npos);
}

TEST_CASE("OGB folder loads, ragged feature rows are reported with the line") {
  TempDir t;
  auto d = t / "ogbn-toy";
  gnntest::write_toy_ogb(d);
  Graph g = load_graph_path(d);
  CHECK(g.num_nodes == 4);
  CHECK(g.num_edges() == 6);
  CHECK(g.feature_dim == 2);
  CHECK(g.num_classes == 3);
  CHECK(g.split[2] == static_cast<uint8_t>(Split::Val));
  gnntest::write_gz(d / "raw/node-feat.csv.gz", "0.1,0.2\n0.3\n0.5,0.6\n0.7,0.8\n");
  CHECK(error_of([&] { load_graph_path(d); }).find("node-feat.csv.gz:2: ragged") != std::string::npos);
}

TEST_CASE("binary CSR round trip is memory-mapped and identical") {
  TempDir t;
  Graph g = generate_sbm(gnntest::small_sbm(300), 5);
  write_binary_graph(g, t / "g.mlsg");
  Graph m = map_binary_graph(t / "g.mlsg");
  CHECK(m.indices.mapped());
  CHECK(m.num_nodes == g.num_nodes);
  CHECK(m.fingerprint() == g.fingerprint());
  CHECK(std::equal(g.features.begin(), g.features.end(), m.features.begin()));
  CHECK(std::equal(g.labels.begin(), g.labels.end(), m.labels.begin()));
  CHECK(std::equal(g.split.begin(), g.split.end(), m.split.begin()));
  // Dropping the mapped pages (as a lone trainer does) leaves the data readable and unchanged.
  m.indices.release_pages();
  m.features.release_pages();
  g.indices.release_pages();  // owned: a no-op
  CHECK(m.fingerprint() == g.fingerprint());
  CHECK(std::equal(g.features.begin(), g.features.end(), m.features.begin()));
  write_text(t / "junk.mlsg", std::string(200, 'x'));
  CHECK(error_of([&] { map_binary_graph(t / "junk.mlsg"); }).find("not an mlsys binary graph") != std::string::npos);
}

TEST_CASE("Cora from ../shared matches its published shape") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  Graph g = load_text_graph(data / "graphs" / "cora");
  CHECK(g.num_nodes == 2708);
  CHECK(g.num_edges() == 2 * 5278);
  CHECK(g.feature_dim == 1433);
  CHECK(g.num_classes == 7);
  CHECK(g.count(Split::Train) == 140);
  CHECK(g.count(Split::Val) == 500);
  CHECK(g.count(Split::Test) == 1000);
}

TEST_CASE("NaN features, labels outside the classes and unknown split names: errors, or counted with lenient") {
  TempDir t;
  auto dir = t / "g";
  gnntest::write_tiny_text_graph(dir);
  write_text(dir / "features.txt", "6 2\n0 1 0:1\n1 1 0:nan\n2 2 0:1 1:0.5\n3 1 1:1\n4 1 1:1\n5 1 1:2\n");
  CHECK(error_of([&] { load_text_graph(dir); }).find("features.txt:3") != std::string::npos);
  Graph g = load_text_graph(dir, /*lenient=*/true);
  REQUIRE(g.skipped_rows.size() == 1);
  CHECK(g.skipped_rows.begin()->second == 1);
  for (float v : g.feature_values) CHECK(std::isfinite(v));

  gnntest::write_tiny_text_graph(dir);
  write_text(dir / "split.txt", "0 train\n5 train\n1 val\n4 validation\n2 test\n3 test\n");
  CHECK(error_of([&] { load_text_graph(dir); }).find("split.txt:4") != std::string::npos);
  CHECK(load_text_graph(dir, true).skipped_rows.size() == 1);

  gnntest::write_tiny_text_graph(dir);
  write_text(dir / "labels.txt", "0 0\n1 0\n2 0\n3 1\n4 -3\n5 1\n");
  CHECK(!error_of([&] { load_text_graph(dir); }).empty());
}

TEST_CASE("the binary graph cache follows every input file: an edited or corrupt copy is rebuilt, never used") {
  TempDir t;
  auto dir = t / "g";
  gnntest::write_tiny_text_graph(dir);
  GraphOptions o;
  o.source = "file";
  o.path = dir.string();
  o.cache_dir = (t / "cache").string();
  auto load = [&] { return graph_source_registry().create("file")->load(o, 1); };
  const Graph first = load();
  CHECK(first.num_edges() == 14);
  REQUIRE(std::filesystem::exists(t / "cache" / "graphs"));
  // Edit edges.txt only (meta.txt unchanged): the next load must see the new edge.
  write_text(dir / "edges.txt", "0 1\n0 2\n1 2\n2 3\n3 4\n3 5\n4 5\n0 5\n");
  const Graph edited = load();
  CHECK(edited.num_edges() == 16);
  // Corrupt every cached copy: the next load rebuilds from the text files.
  for (const auto& e : std::filesystem::recursive_directory_iterator(t / "cache"))
    if (e.is_regular_file()) write_text(e.path(), "garbage");
  CHECK(load().num_edges() == 16);
  // An invalid edit is an error, not the old cached graph.
  write_text(dir / "edges.txt", "0 1\n0 99\n");
  CHECK_THROWS_AS(load(), InputError);
}
