#include "gnn/graph/generators.hpp"

#include <omp.h>

#include <algorithm>

#include "core/process/system.hpp"
#include "core/util/error.hpp"
#include "core/util/random.hpp"

namespace mlsys::gnn {

// Split by a per-node hash so it is independent of generation order.
std::vector<uint8_t> random_split(int64_t n, double train, double val, uint64_t seed) {
  std::vector<uint8_t> s(static_cast<size_t>(n));
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v) {
    double u = static_cast<double>(derive_seed(seed, 0x5b11u, static_cast<uint64_t>(v)) >> 11) * 0x1.0p-53;
    s[v] = static_cast<uint8_t>(u < train ? Split::Train : u < train + val ? Split::Val : Split::Test);
  }
  return s;
}

namespace {

constexpr int64_t kBlock = 1 << 16;  // RNG stream granularity: thread-count independent

// The generators' loops run in OpenMP blocks of kBlock draws (about a millisecond each), where an
// exception cannot leave the parallel region: a stop signal makes every remaining block return at
// once, and the generator throws Interrupted after the region, so a stop waits for one block
// (a billion-edge R-MAT graph used to finish generating first).
void stop_if_interrupted(const std::string& what) {
  if (interrupted()) throw Interrupted(what + " stopped by " + interrupt_signal_name());
}

void gaussian_fill(std::vector<float>& x, uint64_t seed) {
  const int64_t m = static_cast<int64_t>(x.size());
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < (m + kBlock - 1) / kBlock; ++b) {
    if (interrupted()) continue;
    Rng r(derive_seed(seed, static_cast<uint64_t>(b)));
    for (int64_t i = b * kBlock; i < std::min(m, (b + 1) * kBlock); ++i) x[i] = static_cast<float>(r.normal());
  }
  stop_if_interrupted("generating features");
}

}  // namespace

Graph generate_sbm(const SbmParams& p, uint64_t seed) {
  if (p.nodes < 2 || p.classes < 1 || p.features < 1 || p.avg_degree <= 0)
    throw ConfigError("sbm: need nodes >= 2, classes >= 1, features >= 1, avg_degree > 0");
  const int64_t n = p.nodes;
  Graph g;
  g.name = "sbm";
  g.num_classes = p.classes;
  std::vector<int32_t> y(static_cast<size_t>(n));
  for (int64_t v = 0; v < n; ++v) y[v] = static_cast<int32_t>(derive_seed(seed, 0xc1a55u, static_cast<uint64_t>(v)) % p.classes);
  std::vector<std::vector<int32_t>> members(static_cast<size_t>(p.classes));
  for (int64_t v = 0; v < n; ++v) members[y[v]].push_back(static_cast<int32_t>(v));
  for (int32_t c = 0; c < p.classes; ++c)
    if (members[c].empty()) members[c].push_back(0);  // tiny graphs: keep sampling well-defined

  const int64_t m = static_cast<int64_t>(static_cast<double>(n) * p.avg_degree / 2.0);
  std::vector<std::pair<int32_t, int32_t>> edges(static_cast<size_t>(m));
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < (m + kBlock - 1) / kBlock; ++b) {
    if (interrupted()) continue;
    Rng r(derive_seed(seed, 0xed9eu, static_cast<uint64_t>(b)));
    for (int64_t e = b * kBlock; e < std::min(m, (b + 1) * kBlock); ++e) {
      int32_t u = static_cast<int32_t>(r.below(static_cast<uint64_t>(n)));
      int32_t v;
      if (r.uniform() < p.homophily) {
        const auto& mem = members[y[u]];
        v = mem[r.below(mem.size())];
      } else {
        v = static_cast<int32_t>(r.below(static_cast<uint64_t>(n)));
      }
      edges[e] = {u, v};
    }
  }
  stop_if_interrupted("generating the SBM graph's edges");
  build_symmetric_csr(n, edges, g);
  edges = {};

  // Features: class mean (a random Gaussian direction per class) times the signal, plus noise.
  std::vector<float> mu(static_cast<size_t>(p.classes * p.features));
  gaussian_fill(mu, derive_seed(seed, 0x3e4u));
  std::vector<float> x(static_cast<size_t>(n * p.features));
  gaussian_fill(x, derive_seed(seed, 0xfea7u));
  const float s = static_cast<float>(p.feature_signal);
#pragma omp parallel for schedule(static)
  for (int64_t v = 0; v < n; ++v)
    for (int64_t f = 0; f < p.features; ++f) x[v * p.features + f] += s * mu[y[v] * p.features + f];
  g.feature_dim = p.features;
  g.features = Array<float>(std::move(x));
  if (p.label_noise > 0 && p.classes > 1)  // a stream of its own: label_noise = 0 leaves every other draw as it was
    for (int64_t v = 0; v < n; ++v) {
      Rng r(derive_seed(seed, 0x1abe1u, static_cast<uint64_t>(v)));
      if (r.uniform() < p.label_noise) y[v] = static_cast<int32_t>((y[v] + 1 + r.below(static_cast<uint64_t>(p.classes - 1))) % p.classes);
    }
  g.labels = Array<int32_t>(std::move(y));
  g.split = Array<uint8_t>(random_split(n, p.train_fraction, p.val_fraction, seed));
  return g;
}

Graph generate_rmat(const RmatParams& p, uint64_t seed) {
  if (p.scale < 1 || p.scale > 30) throw ConfigError("rmat: scale must be in [1, 30]");
  const double d = 1.0 - p.a - p.b - p.c;
  if (p.a <= 0 || p.b < 0 || p.c < 0 || d < 0) throw ConfigError("rmat: need a > 0, b, c >= 0, a + b + c <= 1");
  const int64_t n = int64_t{1} << p.scale;
  const int64_t m = p.edges > 0 ? p.edges : 16 * n;
  Graph g;
  g.name = "rmat" + std::to_string(p.scale);
  g.num_classes = p.classes;
  std::vector<std::pair<int32_t, int32_t>> edges(static_cast<size_t>(m));
  const double ab = p.a + p.b, abc = p.a + p.b + p.c;
#pragma omp parallel for schedule(static)
  for (int64_t b = 0; b < (m + kBlock - 1) / kBlock; ++b) {
    if (interrupted()) continue;
    Rng r(derive_seed(seed, 0x7a7u, static_cast<uint64_t>(b)));
    for (int64_t e = b * kBlock; e < std::min(m, (b + 1) * kBlock); ++e) {
      uint32_t u = 0, v = 0;
      for (int l = 0; l < p.scale; ++l) {
        double x = r.uniform();
        u <<= 1;
        v <<= 1;
        if (x < p.a) {
        } else if (x < ab) {
          v |= 1;
        } else if (x < abc) {
          u |= 1;
        } else {
          u |= 1;
          v |= 1;
        }
      }
      edges[e] = {static_cast<int32_t>(u), static_cast<int32_t>(v)};
    }
  }
  stop_if_interrupted("generating the R-MAT graph's edges");
  build_symmetric_csr(n, edges, g);
  edges = {};
  std::vector<float> x(static_cast<size_t>(n * p.features));
  gaussian_fill(x, derive_seed(seed, 0xfea7u));
  std::vector<int32_t> y(static_cast<size_t>(n));
  for (int64_t v = 0; v < n; ++v) y[v] = static_cast<int32_t>(derive_seed(seed, 0x1abu, static_cast<uint64_t>(v)) % p.classes);
  g.feature_dim = p.features;
  g.features = Array<float>(std::move(x));
  g.labels = Array<int32_t>(std::move(y));
  g.split = Array<uint8_t>(random_split(n, p.train_fraction, p.val_fraction, seed));
  return g;
}

const config::Section<SbmParams>& sbm_section() {
  using P = SbmParams;
  static const config::Section<P> s("sbm", "Stochastic block model", [](auto& s) {
    s.field("nodes", &P::nodes, "sbm: number of nodes").range(2, 2e9);
    s.field("classes", &P::classes, "sbm/rmat: number of classes").range(1, 100000);
    s.field("avg_degree", &P::avg_degree, "sbm: average degree (directed entries per node)").range(0.01, 1e5);
    s.field("homophily", &P::homophily, "sbm: fraction of edges inside a class").range(0, 1);
    s.field("features", &P::features, "sbm/rmat: feature dimension").range(1, 1e6);
    s.field("feature_signal", &P::feature_signal, "sbm: class-mean scale relative to unit noise").range(0, 1e3);
    s.field("label_noise", &P::label_noise, "sbm: fraction of nodes labeled with another class (accuracy ceiling 1 - noise)")
        .range(0, 1);
    s.field("train_fraction", &P::train_fraction, "Generated graphs: fraction of nodes in the train split").range(0.0001, 1);
    s.field("val_fraction", &P::val_fraction, "Generated graphs: fraction in the val split (rest is test)").range(0, 1);
  });
  return s;
}

const config::Section<RmatParams>& rmat_section() {
  using P = RmatParams;
  static const config::Section<P> s("rmat", "R-MAT power-law graph", [](auto& s) {
    s.field("rmat_scale", &P::scale, "rmat: 2^scale nodes").range(1, 30);
    s.field("rmat_edges", &P::edges, "rmat: generated edges before symmetrizing (0 = 16 per node)").range(0, 1e11);
  });
  return s;
}

}  // namespace mlsys::gnn
