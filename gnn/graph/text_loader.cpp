#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

#include "gnn/graph/loaders.hpp"
#include "gnn/graph/token_reader.hpp"

namespace mlsys::gnn {

namespace fs = std::filesystem;

namespace {

// The numbers of a text graph folder (core/util/number_parse.hpp); node ids and classes are further
// checked against the node and class counts where those are known. Feature values outside
// float32 (NaN, infinity, 1e300) are refused, or counted by row with gnn.graph.lenient.
constexpr IntRule kNodes{"nodes", 1, INT32_MAX};
constexpr IntRule kClasses{"classes", 1, INT32_MAX};
constexpr IntRule kFeatureCount{"feature count", 1, INT32_MAX};
constexpr IntRule kColumn{"column", 0, INT32_MAX};
constexpr IntRule kSourceId{"source id", 0, INT32_MAX - 1};
constexpr IntRule kTargetId{"target id", 0, INT32_MAX - 1};
constexpr IntRule kNodeId{"node id", 0, INT32_MAX - 1};
// -1 = unlabeled; other negative classes are bad rows below (counted with gnn.graph.lenient).
constexpr IntRule kClass{"class", std::numeric_limits<int64_t>::min(), INT32_MAX - 1};
constexpr RealRule kFeatureValue{"feature value", -kFloat32Max, kFloat32Max};

fs::path must_exist(const fs::path& p) {
  if (!fs::exists(p)) throw InputError("missing file " + p.string() + " (a text graph folder needs meta.txt, edges.txt, labels.txt, split.txt)");
  return p;
}

// A bad row: an error naming file:line, or, when loading leniently, a row skipped and counted.
struct BadRows {
  bool lenient = false;
  std::map<std::string, int64_t>* counts = nullptr;
  // Returns normally (the caller skips the row) only when lenient.
  void bad(const TokenReader& r, const std::string& file, const std::string& reason, const std::string& msg) const {
    if (!lenient) r.fail(msg + " (gnn.graph.lenient=true skips such rows and counts them)");
    ++(*counts)[file + ": " + reason];
  }
};

// Row-major CSR of the feature lines (entries of one node in ascending columns; a column given
// twice keeps its last value, as writing into a dense row would). Dense when at least a tenth of
// the entries are nonzero: the sparse form then saves little and the dense kernels are faster.
void set_features(Graph& g, int64_t n, int64_t f, std::vector<int32_t>& node, std::vector<int32_t>& col, std::vector<float>& val) {
  std::vector<int64_t> order(node.size());
  std::iota(order.begin(), order.end(), int64_t{0});
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return node[a] != node[b] ? node[a] < node[b] : col[a] < col[b]; });
  std::vector<int64_t> rp(static_cast<size_t>(n) + 1, 0);
  std::vector<int32_t> ci;
  std::vector<float> cv;
  ci.reserve(order.size());
  cv.reserve(order.size());
  for (size_t k = 0; k < order.size(); ++k) {
    const int64_t e = order[k];
    // Of equal (node, column) entries the stable sort keeps file order: the last one wins.
    if (k + 1 < order.size() && node[order[k + 1]] == node[e] && col[order[k + 1]] == col[e]) continue;
    if (val[e] == 0.0f) continue;
    ci.push_back(col[e]);
    cv.push_back(val[e]);
    ++rp[static_cast<size_t>(node[e]) + 1];
  }
  node = {};
  col = {};
  val = {};
  order = {};
  for (int64_t v = 0; v < n; ++v) rp[v + 1] += rp[v];
  g.feature_dim = f;
  if (static_cast<int64_t>(ci.size()) < n * f / 10) {
    g.feature_indptr = Array<int64_t>(std::move(rp));
    g.feature_indices = Array<int32_t>(std::move(ci));
    g.feature_values = Array<float>(std::move(cv));
    return;
  }
  std::vector<float> x(static_cast<size_t>(n * f), 0.0f);
  for (int64_t v = 0; v < n; ++v)
    for (int64_t e = rp[v]; e < rp[v + 1]; ++e) x[static_cast<size_t>(v * f + ci[e])] = cv[e];
  g.features = Array<float>(std::move(x));
}

// meta.txt: `key value` lines; nodes and classes are required.
std::map<std::string, std::string> read_meta(const fs::path& dir) {
  std::map<std::string, std::string> meta;
  TokenReader r(must_exist(dir / "meta.txt"));
  while (r.next()) {
    std::string key(r.token());
    meta[key] = std::string(r.token());
  }
  for (const char* k : {"nodes", "classes"})
    if (!meta.count(k)) throw InputError(fmt::format("{}: missing the '{}' line", (dir / "meta.txt").string(), k));
  return meta;
}

// edges.txt: `u v` per line, both ids in [0, n); stored symmetric.
void read_edges(const fs::path& dir, int64_t n, Graph& g) {
  std::vector<std::pair<int32_t, int32_t>> edges;
  {
    TokenReader r(must_exist(dir / "edges.txt"));
    while (r.next()) {
      const int64_t u = r.integer(kSourceId), v = r.integer(kTargetId);
      if (u < 0 || u >= n || v < 0 || v >= n) r.fail(fmt::format("node id out of range [0, {}): {} {}", n, u, v));
      if (!r.at_end()) r.fail("expected two ids per line");
      edges.emplace_back(static_cast<int32_t>(u), static_cast<int32_t>(v));
    }
  }
  build_symmetric_csr(n, edges, g);
}

// features.txt (optional): a `N F` header, then `node nnz col:val ...` rows; a row with a NaN or
// infinite value is a bad row.
void read_features(const fs::path& p, int64_t n, const BadRows& rows, Graph& g) {
  TokenReader r(p);
  if (!r.next()) r.fail("empty feature file (first line must be 'N F')");
  const int64_t fn = r.integer("node count"), f = r.integer(kFeatureCount);
  if (fn != n) r.fail(fmt::format("feature file has {} rows but meta.txt says {} nodes", fn, n));
  std::vector<int32_t> node, col;
  std::vector<float> val;
  while (r.next()) {
    const int64_t v = r.integer(kNodeId);
    if (v < 0 || v >= n) r.fail(fmt::format("node id {} out of range [0, {})", v, n));
    const int64_t nnz = r.integer("entry count");
    const size_t first = val.size();
    int64_t seen = 0;
    bool finite = true;
    while (!r.at_end()) {
      const std::string_view tok = r.token();
      const size_t colon = tok.find(':');
      if (colon == std::string_view::npos) r.fail("expected col:val, got '" + std::string(tok) + "'");
      const int64_t c = r.integer_of(tok.substr(0, colon), kColumn);
      const double x = r.number(tok.substr(colon + 1), kFeatureValue);
      if (c >= f) r.fail(fmt::format("column {} out of range [0, {})", c, f));
      finite = finite && !std::isnan(x);
      node.push_back(static_cast<int32_t>(v));
      col.push_back(static_cast<int32_t>(c));
      val.push_back(static_cast<float>(x));
      ++seen;
    }
    if (seen != nnz) r.fail(fmt::format("ragged row: says {} entries, has {}", nnz, seen));
    if (!finite) {
      rows.bad(r, "features.txt", "non-finite value", fmt::format("node {} has a NaN or infinite feature value", v));
      node.resize(first);
      col.resize(first);
      val.resize(first);
    }
  }
  set_features(g, n, f, node, col, val);
}

// labels.txt: `node class` (-1 = unlabeled), or `node c1 c2 ...` for a multi-label graph.
void read_labels(const fs::path& dir, const std::map<std::string, std::string>& meta, int64_t n, const BadRows& rows,
                 Graph& g) {
  TokenReader r(must_exist(dir / "labels.txt"));
  std::vector<int32_t> y(static_cast<size_t>(n), -1);
  // Multi-label: `node c1 c2 ...` (the node's classes, possibly none; a listed node is labeled).
  const bool multi = meta.count("multilabel") && meta.at("multilabel") == "1";
  std::vector<uint8_t> ym(multi ? static_cast<size_t>(n * g.num_classes) : 0, 0);
  std::vector<int64_t> cls;
  while (r.next()) {
    const int64_t v = r.integer(kNodeId);
    if (v < 0 || v >= n) r.fail(fmt::format("node id {} out of range [0, {})", v, n));
    if (multi) {
      cls.clear();
      bool ok = true;
      while (!r.at_end()) {
        const int64_t c = r.integer(kClass);
        ok = ok && c >= 0 && c < g.num_classes;
        cls.push_back(c);
      }
      if (!ok) {
        rows.bad(r, "labels.txt", "class out of range", fmt::format("a class of node {} is outside the {} classes", v, g.num_classes));
        continue;
      }
      y[v] = 0;
      for (int64_t c : cls) ym[static_cast<size_t>(v * g.num_classes + c)] = 1;
      continue;
    }
    const int64_t c = r.integer(kClass);
    if (c < -1 || c >= g.num_classes) {
      rows.bad(r, "labels.txt", "class out of range", fmt::format("label {} outside the {} classes (-1 = unlabeled)", c, g.num_classes));
      continue;
    }
    y[v] = static_cast<int32_t>(c);
  }
  g.labels = Array<int32_t>(std::move(y));
  if (multi) g.multi_labels = Array<uint8_t>(std::move(ym));
}

// split.txt: `node train|val|test`; only labeled nodes, and no split may be empty.
void read_split(const fs::path& dir, int64_t n, const BadRows& rows, Graph& g) {
  const fs::path p = must_exist(dir / "split.txt");
  TokenReader r(p);
  std::vector<uint8_t> s(static_cast<size_t>(n), 0);
  while (r.next()) {
    const int64_t v = r.integer(kNodeId);
    if (v < 0 || v >= n) r.fail(fmt::format("node id {} out of range [0, {})", v, n));
    const std::string_view w = r.token();
    const Split k = w == "train" ? Split::Train : w == "val" ? Split::Val : w == "test" ? Split::Test : Split::None;
    if (k == Split::None) {
      rows.bad(r, "split.txt", "unknown split name", "split must be train, val or test, got '" + std::string(w) + "'");
      continue;
    }
    if (g.labels[v] < 0) {
      rows.bad(r, "split.txt", "unlabeled node in a split", fmt::format("node {} is in the {} split but unlabeled", v, w));
      continue;
    }
    s[v] = static_cast<uint8_t>(k);
  }
  g.split = Array<uint8_t>(std::move(s));
  for (auto [k, w] : {std::pair{Split::Train, "train"}, {Split::Val, "val"}, {Split::Test, "test"}})
    if (g.count(k) == 0) throw InputError(fmt::format("{}: the {} split is empty", p.string(), w));
}

}  // namespace

Graph load_text_graph(const fs::path& dir, bool lenient) {
  Graph g;
  g.name = dir.filename().empty() ? dir.parent_path().filename().string() : dir.filename().string();
  const BadRows rows{lenient, &g.skipped_rows};
  const std::map<std::string, std::string> meta = read_meta(dir);
  const int64_t n = parse_field(meta.at("nodes"), kNodes, (dir / "meta.txt").string());
  const int64_t classes = parse_field(meta.at("classes"), kClasses, (dir / "meta.txt").string());
  g.num_classes = static_cast<int32_t>(classes);
  read_edges(dir, n, g);
  if (fs::path p = dir / "features.txt"; fs::exists(p)) read_features(p, n, rows, g);
  read_labels(dir, meta, n, rows, g);
  read_split(dir, n, rows, g);
  g.validate(dir.string());
  return g;
}

}  // namespace mlsys::gnn
