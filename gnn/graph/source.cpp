#include "gnn/graph/source.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "core/log/log.hpp"
#include "core/io/hash.hpp"
#include "core/util/random.hpp"
#include "gnn/graph/generators.hpp"
#include "gnn/graph/loaders.hpp"
#include "gnn/graph/npz_graph.hpp"
#include "core/util/fs.hpp"

namespace mlsys::gnn {

namespace fs = std::filesystem;

GraphSourceRegistry& graph_source_registry() {
  static GraphSourceRegistry r("graph source");
  return r;
}

std::string cache_root(const GraphOptions& o) {
  if (!o.cache_dir.empty()) return o.cache_dir;
  if (const char* e = std::getenv("MLSYS_CACHE_DIR"); e && *e) return e;
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/mlsys";
  return ".mlsys-cache";
}

namespace {

template <class F>
struct LambdaSource final : GraphSource {
  F f;
  explicit LambdaSource(F fn) : f(std::move(fn)) {}
  Graph load(const GraphOptions& o, uint64_t seed) override { return f(o, seed); }
};
template <class F>
bool add_source(const char* name, const char* desc, F f) {
  return graph_source_registry().add(name, desc, [f] { return std::make_unique<LambdaSource<F>>(f); });
}

// What a cached binary copy of the folder at `p` is valid for: the path, the loader settings and the
// content of every file below it (digest_path: names and bytes, XXH3: portable, so a
// cache folder shared between machines keys alike), so editing any input file (edges, labels,
// features, split, meta) misses the cache.
uint64_t source_key(const fs::path& p, const GraphOptions& o) {
  return content_hash64(fs::absolute(p).lexically_normal().string() + "|" + o.ogb_scheme + "|" +
                        (o.lenient ? "lenient" : "strict") + "|mlsg2|" + digest_path(p).hash);
}

// Text and OGB folders are parsed once, then the binary copy is mapped. A copy whose recorded key
// differs (an input file changed) or that does not map and validate is rebuilt, never used.
Graph load_file(const GraphOptions& o, uint64_t seed) {
  if (o.path.empty()) throw ConfigError("gnn.graph.path is empty: set it to a graph folder or .mlsg file (source=file)");
  fs::path p = o.path;
  require_input(p, "gnn.graph.path (--graph)", InputKind::Any, "a text graph folder, OGB folder, .mlsg or .npz file");
  if (p.extension() == ".npz") return load_npz_graph(p, o, seed);
  if (fs::is_regular_file(p) || !o.binary_cache) return load_graph_path(p, o.ogb_scheme, o.lenient);
  const uint64_t key = source_key(p, o);
  fs::path name = p.filename().empty() ? p.parent_path().filename() : p.filename();
  fs::path bin = fs::path(cache_root(o)) / "graphs" / (name.string() + "-" + std::to_string(key % 1000000007ULL) + ".mlsg");
  if (fs::exists(bin)) {
    try {
      uint64_t stored = 0;
      Graph g = map_binary_graph(bin, &stored);
      if (stored == key) {
        g.name = name.string();
        log::info("graph: mapped cached binary {}", bin.string());
        return g;
      }
      log::warn("graph: cached binary {} was made from other input files; rebuilding it", bin.string());
    } catch (const InputError& e) {
      log::warn("graph: cached binary {} is unreadable ({}); rebuilding it", bin.string(), e.what());
    }
  }
  Graph g = load_graph_path(p, o.ogb_scheme, o.lenient);
  // The binary format holds one label per node; a lenient load's skipped rows are reported anew
  // on every load, so neither is cached.
  if (g.multi_label() || !g.skipped_rows.empty()) return g;
  try {
    write_binary_graph(g, bin, key);
    log::info("graph: wrote binary copy {}", bin.string());
  } catch (const Error& e) {
    log::warn("graph: could not write the binary cache ({}); continuing", e.what());
  }
  return g;
}

// Presets keep the published shape (nodes, degree, features, classes); preset_scale and
// preset_degree_scale shrink them to fit a small machine. Learnable SBM structure underneath.
Graph preset(const GraphOptions& o, uint64_t seed, const char* name, int64_t nodes, double edges, int64_t f, int c,
             double train, double val) {
  SbmParams p = o.sbm;
  p.nodes = std::max<int64_t>(2, static_cast<int64_t>(static_cast<double>(nodes) * o.preset_scale));
  p.avg_degree = edges / static_cast<double>(nodes) * o.preset_degree_scale;
  p.features = f;
  p.classes = c;
  p.train_fraction = train;
  p.val_fraction = val;
  Graph g = generate_sbm(p, seed);
  g.name = name;
  return g;
}

const bool r1 = add_source("file", "Load gnn.graph.path: text folder, OGB folder, mlsys .mlsg binary or NumPy .npz (PyG/DGL/gnn-benchmark)", load_file);
const bool r2 = add_source("sbm", "Stochastic block model with class-correlated Gaussian features (learnable)",
                           [](const GraphOptions& o, uint64_t s) { return generate_sbm(o.sbm, s); });
// The feature dimension and class count are the keys the SBM shares with it (graph.features, graph.classes).
const bool r3 = add_source("rmat", "R-MAT power-law graph (2^rmat_scale nodes), random features and labels", [](const GraphOptions& o, uint64_t s) {
  RmatParams p = o.rmat;
  p.features = o.sbm.features;
  p.classes = o.sbm.classes;
  return generate_rmat(p, s);
});
const bool r4 = add_source("reddit-like", "SBM with Reddit's shape: 232,965 nodes, ~114.6M directed edges, 602 features, 41 classes",
                           [](const GraphOptions& o, uint64_t s) { return preset(o, s, "reddit-like", 232965, 114.6e6, 602, 41, 0.66, 0.10); });
const bool r5 = add_source("products-like", "SBM with ogbn-products' shape: 2,449,029 nodes, ~123.7M directed edges, 100 features, 47 classes",
                           [](const GraphOptions& o, uint64_t s) { return preset(o, s, "products-like", 2449029, 123.7e6, 100, 47, 0.08, 0.02); });

}  // namespace
}  // namespace mlsys::gnn
