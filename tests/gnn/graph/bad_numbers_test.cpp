// Every graph reader against the shared table of bad numbers (tests/common/bad_numbers.hpp, issue
// #30 item 1), and the findings of the issue that are graph values: a NaN feature and a split byte
// 9 in a .mlsg, a bool edge_index in a .npz. Each reader must refuse with an error naming the field.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/util/error.hpp"
#include "gnn/graph/loaders.hpp"
#include "gnn/graph/npz_graph.hpp"
#include "gnn/graph/source.hpp"
#include "tests/common/bad_numbers.hpp"
#include "tests/gnn/gnn_test_util.hpp"
#include "tests/gnn/graph/npz_writer.hpp"

using namespace mlsys;
using namespace mlsys::gnn;
using namespace mlsys::gnn::npztest;
using mlsys::test::kBadNumbers;
using mlsys::test::TempDir;
using mlsys::test::thrown_message;
using mlsys::test::write_text;
namespace fs = std::filesystem;

namespace {

// Bytes of a file, patched at `offset`.
void patch(const fs::path& p, uint64_t offset, const void* bytes, size_t n) {
  std::fstream f(p, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>(offset));
  f.write(static_cast<const char*>(bytes), static_cast<std::streamsize>(n));
}

// The offset of .mlsg section `i` (header: magic 8, version+reserved 8, 4 x i64, then offsets).
uint64_t section_offset(const fs::path& p, int i) {
  std::ifstream f(p, std::ios::binary);
  f.seekg(8 + 8 + 32 + 8 * i);
  uint64_t off = 0;
  f.read(reinterpret_cast<char*>(&off), 8);
  return off;
}

}  // namespace

TEST_CASE("bad numbers: text graph folder (meta, edges, labels, features) refuses each, naming the field") {
  TempDir t;
  const fs::path dir = t / "g";
  struct Field {
    const char* file;
    const char* text;  // "{}" is the bad number
    const char* field;
    bool count;        // an integer field (else a feature value)
    bool minus_one_ok;  // -1 means "unlabeled" here
  };
  const Field fields[] = {
      {"meta.txt", "dataset tiny\nnodes {}\nfeatures 2\nclasses 2\n", "nodes", true, false},
      {"meta.txt", "dataset tiny\nnodes 6\nfeatures 2\nclasses {}\n", "classes", true, false},
      {"edges.txt", "0 1\n0 {}\n", "target id", true, false},
      {"labels.txt", "0 0\n1 {}\n", "class", true, true},
      {"split.txt", "{} train\n5 train\n1 val\n4 val\n2 test\n3 test\n", "node id", true, false},
      {"features.txt", "6 2\n0 1 0:1\n1 1 0:{}\n2 2 0:1 1:0.5\n3 1 1:1\n4 1 1:1\n5 1 1:2\n", "feature", false, false},
  };
  for (const Field& f : fields)
    for (const auto& b : kBadNumbers) {
      CAPTURE(f.field);
      CAPTURE(b.text);
      const bool must_refuse = f.count ? b.refused_as_count && !(f.minus_one_ok && b.text == "-1") : b.refused_as_feature;
      if (!must_refuse) continue;
      gnntest::write_tiny_text_graph(dir);
      write_text(dir / f.file, mlsys::test::with_number(f.text, b.text));
      const std::string e = thrown_message<InputError>([&] { load_text_graph(dir); });
      CHECK_MESSAGE(e.find(f.field) != std::string::npos, e);
      CHECK_MESSAGE(e.find(f.file) != std::string::npos, e);
    }
}

TEST_CASE("bad numbers: OGB folder (edges, labels, features, splits) refuses each, naming the field") {
  TempDir t;
  const fs::path d = t / "ogbn-toy";
  struct Field {
    const char* table;
    const char* text;
    const char* field;
    bool count;
  };
  const Field fields[] = {
      {"raw/edge.csv.gz", "0,1\n1,{}\n2,3\n", "node id", true},
      {"raw/num-node-list.csv.gz", "{}\n", "node count", true},
      {"raw/node-label.csv.gz", "0\n1\n{}\n1\n", "label", true},
      {"split/time/valid.csv.gz", "{}\n", "node id", true},
      {"raw/node-feat.csv.gz", "0.1,0.2\n0.3,{}\n0.5,0.6\n0.7,0.8\n", "feature", false},
  };
  for (const Field& f : fields)
    for (const auto& b : kBadNumbers) {
      CAPTURE(f.table);
      CAPTURE(b.text);
      // "nan" is OGB's own spelling of an unlabeled node.
      const bool must_refuse = f.count ? b.refused_as_count && !(f.field == std::string("label") && b.text == "nan")
                                       : b.refused_as_feature;
      if (!must_refuse) continue;
      gnntest::write_toy_ogb(d);
      gnntest::write_gz(d / f.table, mlsys::test::with_number(f.text, b.text));
      const std::string e = thrown_message<InputError>([&] { load_graph_path(d); });
      CHECK_MESSAGE(e.find(f.field) != std::string::npos, e);
    }
}

TEST_CASE("bad numbers: .npz edge_index and node ids stored as floats refuse each, naming the key") {
  for (const auto& b : kBadNumbers) {
    CAPTURE(b.text);
    const double x = std::stod(std::string(b.text));
    std::vector<double> ei(kRows.begin(), kRows.end());
    ei.insert(ei.end(), kCols.begin(), kCols.end());
    ei[1] = x;
    auto m = pyg_members();
    for (auto& member : m)
      if (member.name == "edge_index.npy") member.bytes = f8({2, 7}, ei);
    const std::string e = thrown_message<InputError>([&] {
      npz_graph(NpzArchive::from_bytes(zip(m), "t.npz"), nullptr, "t", GraphOptions{}, 7);
    });
    CHECK_MESSAGE(e.find("t.npz: edge_index") == 0, e);
  }
}

TEST_CASE("finding: a bool edge_index in .npz is refused, not read as a 2-edge graph") {
  auto m = pyg_members();
  for (auto& member : m)
    if (member.name == "edge_index.npy") member.bytes = b1({2, 7}, {1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1});
  const std::string e = thrown_message<InputError>([&] {
    npz_graph(NpzArchive::from_bytes(zip(m), "t.npz"), nullptr, "t", GraphOptions{}, 7);
  });
  CHECK_MESSAGE(e.find("t.npz: edge_index: is a boolean array") == 0, e);
}

TEST_CASE("finding: a NaN feature and a split byte 9 in a .mlsg are refused, naming node and field") {
  TempDir t;
  const Graph g = generate_sbm(gnntest::small_sbm(300), 5);
  REQUIRE(!g.features.empty());
  const fs::path p = t / "g.mlsg";

  write_binary_graph(g, p);
  const float nan = std::nanf("");
  patch(p, section_offset(p, 2) + 4 * (3 * static_cast<uint64_t>(g.feature_dim) + 1), &nan, 4);  // node 3, feature 1
  std::string e = thrown_message<InputError>([&] { map_binary_graph(p); });
  CHECK_MESSAGE(e.find("g.mlsg: node 3 feature 1: field 'feature' = 'nan': not a finite number") != std::string::npos, e);

  write_binary_graph(g, p);
  const float big = std::numeric_limits<float>::infinity();
  patch(p, section_offset(p, 2), &big, 4);
  e = thrown_message<InputError>([&] { map_binary_graph(p); });
  CHECK_MESSAGE(e.find("node 0 feature 0: field 'feature' = 'inf'") != std::string::npos, e);

  write_binary_graph(g, p);
  const uint8_t nine = 9;
  patch(p, section_offset(p, 4) + 7, &nine, 1);
  e = thrown_message<InputError>([&] { map_binary_graph(p); });
  CHECK_MESSAGE(e.find("g.mlsg: node 7: field 'split' = '9': too large (expected an integer from 0 to 3)") != std::string::npos, e);

  write_binary_graph(g, p);
  CHECK(map_binary_graph(p).fingerprint() == g.fingerprint());  // the unpatched file still loads
}
