#include <fmt/format.h>

#include <map>

#include "core/util/fs.hpp"
#include "gnn/graph/line_reader.hpp"
#include "gnn/graph/loaders.hpp"

namespace mlsys::gnn {

namespace fs = std::filesystem;

static std::string must_read(const fs::path& p) {
  if (!fs::exists(p)) throw InputError("missing file " + p.string() + " (a text graph folder needs meta.txt, edges.txt, labels.txt, split.txt)");
  return read_file(p);
}

Graph load_text_graph(const fs::path& dir) {
  Graph g;
  g.name = dir.filename().string();
  if (g.name.empty()) g.name = dir.parent_path().filename().string();

  std::map<std::string, std::string> meta;
  {
    std::string text = must_read(dir / "meta.txt");
    LineReader r((dir / "meta.txt").string(), text);
    while (r.next()) {
      std::string key(r.token());
      meta[key] = std::string(r.token());
    }
    for (const char* k : {"nodes", "classes"})
      if (!meta.count(k)) throw InputError(fmt::format("{}: missing the '{}' line", (dir / "meta.txt").string(), k));
  }
  auto meta_int = [&](const std::string& k) {
    try {
      return std::stoll(meta.at(k));
    } catch (const std::exception&) {
      throw InputError(fmt::format("{}: '{}' must be an integer, got '{}'", (dir / "meta.txt").string(), k, meta[k]));
    }
  };
  const int64_t n = meta_int("nodes");
  g.num_classes = static_cast<int32_t>(meta_int("classes"));
  if (n <= 0 || n > INT32_MAX) throw InputError((dir / "meta.txt").string() + ": nodes must be in [1, 2^31)");
  if (g.num_classes <= 0) throw InputError((dir / "meta.txt").string() + ": classes must be positive");

  std::vector<std::pair<int32_t, int32_t>> edges;
  {
    fs::path p = dir / "edges.txt";
    std::string text = must_read(p);
    LineReader r(p.string(), text);
    while (r.next()) {
      int64_t u = r.integer("source id"), v = r.integer("target id");
      if (u < 0 || u >= n || v < 0 || v >= n) r.fail(fmt::format("node id out of range [0, {}): {} {}", n, u, v));
      if (!r.at_end()) r.fail("expected two ids per line");
      edges.emplace_back(static_cast<int32_t>(u), static_cast<int32_t>(v));
    }
  }
  build_symmetric_csr(n, edges, g);
  g.name = dir.filename().empty() ? dir.parent_path().filename().string() : dir.filename().string();

  if (fs::path p = dir / "features.txt"; fs::exists(p)) {
    std::string text = read_file(p);
    LineReader r(p.string(), text);
    if (!r.next()) r.fail("empty feature file (first line must be 'N F')");
    int64_t fn = r.integer("node count"), f = r.integer("feature count");
    if (fn != n) r.fail(fmt::format("feature file has {} rows but meta.txt says {} nodes", fn, n));
    if (f <= 0) r.fail("feature count must be positive");
    std::vector<float> x(static_cast<size_t>(n * f), 0.0f);
    while (r.next()) {
      int64_t v = r.integer("node id");
      if (v < 0 || v >= n) r.fail(fmt::format("node id {} out of range [0, {})", v, n));
      int64_t nnz = r.integer("entry count");
      int64_t seen = 0;
      while (!r.at_end()) {
        std::string_view tok = r.token();
        size_t colon = tok.find(':');
        if (colon == std::string_view::npos) r.fail("expected col:val, got '" + std::string(tok) + "'");
        double col = r.number(tok.substr(0, colon), "column");
        double val = r.number(tok.substr(colon + 1), "value");
        if (col < 0 || col >= static_cast<double>(f) || col != static_cast<int64_t>(col))
          r.fail(fmt::format("column {} out of range [0, {})", col, f));
        x[static_cast<size_t>(v * f + static_cast<int64_t>(col))] = static_cast<float>(val);
        ++seen;
      }
      if (seen != nnz) r.fail(fmt::format("ragged row: says {} entries, has {}", nnz, seen));
    }
    g.feature_dim = f;
    g.features = Array<float>(std::move(x));
  }

  {
    fs::path p = dir / "labels.txt";
    std::string text = must_read(p);
    LineReader r(p.string(), text);
    std::vector<int32_t> y(static_cast<size_t>(n), -1);
    // Multi-label: `node c1 c2 ...` (the node's classes, possibly none; a listed node is labeled).
    const bool multi = meta.count("multilabel") && meta["multilabel"] == "1";
    std::vector<uint8_t> ym(multi ? static_cast<size_t>(n * g.num_classes) : 0, 0);
    while (r.next()) {
      int64_t v = r.integer("node id");
      if (v < 0 || v >= n) r.fail(fmt::format("node id {} out of range [0, {})", v, n));
      if (multi) {
        y[v] = 0;
        while (!r.at_end()) {
          int64_t c = r.integer("class");
          if (c < 0 || c >= g.num_classes) r.fail(fmt::format("class {} outside the {} classes", c, g.num_classes));
          ym[static_cast<size_t>(v * g.num_classes + c)] = 1;
        }
        continue;
      }
      int64_t c = r.integer("class");
      if (c < -1 || c >= g.num_classes) r.fail(fmt::format("label {} outside the {} classes (-1 = unlabeled)", c, g.num_classes));
      y[v] = static_cast<int32_t>(c);
    }
    g.labels = Array<int32_t>(std::move(y));
    if (multi) g.multi_labels = Array<uint8_t>(std::move(ym));
  }
  {
    fs::path p = dir / "split.txt";
    std::string text = must_read(p);
    LineReader r(p.string(), text);
    std::vector<uint8_t> s(static_cast<size_t>(n), 0);
    while (r.next()) {
      int64_t v = r.integer("node id");
      if (v < 0 || v >= n) r.fail(fmt::format("node id {} out of range [0, {})", v, n));
      std::string_view w = r.token();
      Split k = w == "train" ? Split::Train : w == "val" ? Split::Val : w == "test" ? Split::Test : Split::None;
      if (k == Split::None) r.fail("split must be train, val or test, got '" + std::string(w) + "'");
      if (g.labels[v] < 0) r.fail(fmt::format("node {} is in the {} split but unlabeled", v, w));
      s[v] = static_cast<uint8_t>(k);
    }
    g.split = Array<uint8_t>(std::move(s));
    for (auto [k, w] : {std::pair{Split::Train, "train"}, {Split::Val, "val"}, {Split::Test, "test"}})
      if (g.count(k) == 0) throw InputError(fmt::format("{}: the {} split is empty", p.string(), w));
  }
  g.validate(dir.string());
  return g;
}

}  // namespace mlsys::gnn
