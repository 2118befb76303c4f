#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/io/line_reader.hpp"
#include "gnn/graph/loaders.hpp"
#include "gnn/graph/token_reader.hpp"

namespace mlsys::gnn {

namespace fs = std::filesystem;

// The numbers of an OGB node-property folder (core/util/number_parse.hpp); ids are further checked
// against the node count. A "nan" label is OGB's unlabeled node and is read before the rule.
static constexpr IntRule kOgbNodes{"node count", 1, INT32_MAX};
static constexpr IntRule kOgbId{"node id", 0, INT32_MAX - 1};
static constexpr IntRule kOgbLabel{"label", 0, INT32_MAX - 1};
static constexpr RealRule kOgbFeature{"feature", -kFloat32Max, kFloat32Max};

// OGB ships each table as name.csv.gz; accept an unpacked name.csv too.
static fs::path table(const fs::path& base, bool required = true) {
  for (const char* ext : {".csv.gz", ".csv"}) {
    fs::path p = base;
    p += ext;
    if (fs::exists(p)) return p;
  }
  if (required) throw InputError("missing OGB table " + base.string() + ".csv.gz (is this an OGB node-property folder?)");
  return {};
}

Graph load_ogb_graph(const fs::path& dir, const std::string& scheme_in, bool lenient) {
  Graph g;
  g.name = dir.filename().empty() ? dir.parent_path().filename().string() : dir.filename().string();
  const fs::path raw = dir / "raw";

  int64_t n = -1;
  if (fs::path p = table(raw / "num-node-list", false); !p.empty()) {
    TokenReader r(p);
    if (!r.next()) r.fail("empty file");
    n = r.integer(kOgbNodes);
    // Every node has a label row, so that file bounds what the count may claim before anything is
    // sized by it: an 8-byte num-node-list of 41441411 nodes made a graph of that many (fuzz_ogb).
    const fs::path labels = table(raw / "node-label");
    if (const int64_t rows = count_lines(labels); rows != n)
      throw InputError(fmt::format("{}: {} nodes, but {} has {} label rows (one per node)", p.string(), n,
                                   labels.string(), rows));
  }
  std::vector<std::pair<int32_t, int32_t>> edges;
  {
    fs::path p = table(raw / "edge");
    TokenReader r(p);
    int64_t max_id = -1;
    while (r.next()) {
      int64_t u = r.integer(kOgbId, ','), v = r.integer(kOgbId, ',');
      if (u < 0 || v < 0 || (n > 0 && (u >= n || v >= n)))
        r.fail(fmt::format("node id out of range [0, {}): {},{}", n, u, v));
      if (u > INT32_MAX || v > INT32_MAX) r.fail("node id exceeds 2^31");
      max_id = std::max({max_id, u, v});
      edges.emplace_back(static_cast<int32_t>(u), static_cast<int32_t>(v));
    }
    if (n < 0) n = max_id + 1;
  }
  build_symmetric_csr(n, edges, g);
  edges.clear();
  edges.shrink_to_fit();

  {
    fs::path p = table(raw / "node-feat");
    TokenReader r(p);
    std::vector<float> x;
    int64_t f = -1, rows = 0;
    while (r.next()) {
      int64_t cnt = 0;
      bool finite = true;
      const size_t first = x.size();
      while (!r.at_end()) {
        const double v = r.number(r.token(','), kOgbFeature);
        finite = finite && !std::isnan(v);
        x.push_back(static_cast<float>(v));
        ++cnt;
      }
      if (f < 0) f = cnt;
      if (cnt != f) r.fail(fmt::format("ragged feature row: {} values, the first row has {}", cnt, f));
      if (!finite) {
        if (!lenient) r.fail("a NaN or infinite feature value (gnn.graph.lenient=true zeroes such rows and counts them)");
        std::fill(x.begin() + static_cast<std::ptrdiff_t>(first), x.end(), 0.0f);
        ++g.skipped_rows["node-feat: non-finite value"];
      }
      if (++rows > n) r.fail(fmt::format("more feature rows than the {} nodes", n));
    }
    if (rows != n) throw InputError(fmt::format("{}: {} feature rows for {} nodes", p.string(), rows, n));
    g.feature_dim = f;
    g.features = Array<float>(std::move(x));
  }
  {
    fs::path p = table(raw / "node-label");
    TokenReader r(p);
    std::vector<int32_t> y;
    int32_t max_c = -1;
    while (r.next()) {
      std::string_view t = r.token(',');
      if (t == "nan" || t == "NaN") {
        y.push_back(-1);
        continue;
      }
      const int64_t c = r.integer_of(t, kOgbLabel);
      if (!r.at_end()) r.fail("multi-label rows are not supported (one label per line expected)");
      y.push_back(static_cast<int32_t>(c));
      max_c = std::max(max_c, y.back());
    }
    if (static_cast<int64_t>(y.size()) != n) throw InputError(fmt::format("{}: {} labels for {} nodes", p.string(), y.size(), n));
    g.num_classes = max_c + 1;
    g.labels = Array<int32_t>(std::move(y));
  }
  {
    std::string scheme = scheme_in;
    if (scheme.empty()) {
      std::vector<std::string> found;
      if (fs::is_directory(dir / "split"))
        for (auto& e : fs::directory_iterator(dir / "split"))
          if (e.is_directory()) found.push_back(e.path().filename().string());
      std::sort(found.begin(), found.end());
      if (found.empty()) throw InputError("missing " + (dir / "split").string() + "/<scheme>/ (train, valid, test lists)");
      scheme = found.front();
    }
    std::vector<uint8_t> s(static_cast<size_t>(n), 0);
    for (auto [k, w] : {std::pair{Split::Train, "train"}, {Split::Val, "valid"}, {Split::Test, "test"}}) {
      fs::path p = table(dir / "split" / scheme / w);
      TokenReader r(p);
      int64_t cnt = 0;
      while (r.next()) {
        int64_t v = r.integer(kOgbId, ',');
        if (v < 0 || v >= n) r.fail(fmt::format("node id {} out of range [0, {})", v, n));
        if (g.labels[v] < 0) r.fail(fmt::format("node {} is in a split but unlabeled", v));
        s[v] = static_cast<uint8_t>(k);
        ++cnt;
      }
      if (cnt == 0) throw InputError(p.string() + ": empty split");
    }
    g.split = Array<uint8_t>(std::move(s));
  }
  g.validate(dir.string());
  return g;
}

Graph load_graph_path(const fs::path& path, const std::string& ogb_scheme, bool lenient) {
  if (!fs::exists(path)) throw InputError("graph path not found: " + path.string());
  if (fs::is_regular_file(path)) return map_binary_graph(path);
  if (fs::exists(path / "raw")) return load_ogb_graph(path, ogb_scheme, lenient);
  if (fs::exists(path / "meta.txt")) return load_text_graph(path, lenient);
  throw InputError(path.string() + ": not a graph (expected a .mlsg file, an OGB folder with raw/, or a folder with meta.txt)");
}

}  // namespace mlsys::gnn
