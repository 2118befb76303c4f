#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <thread>

#include "core/process/system.hpp"
#include "core/util/error.hpp"
#include "gnn/graph/source.hpp"
#include "tests/gnn/gnn_test_util.hpp"

using namespace mlsys;
using namespace mlsys::gnn;

TEST_CASE("SBM: deterministic, homophilous, class-correlated features") {
  SbmParams p = gnntest::small_sbm(2000);
  Graph a = generate_sbm(p, 7), b = generate_sbm(p, 7), c = generate_sbm(p, 8);
  CHECK(a.fingerprint() == b.fingerprint());
  CHECK(a.fingerprint() != c.fingerprint());
  a.validate("sbm");
  double avg = double(a.num_edges()) / double(a.num_nodes);
  CHECK(avg > 0.8 * p.avg_degree);
  CHECK(avg <= p.avg_degree + 1e-9);
  int64_t same = 0;
  for (int64_t u = 0; u < a.num_nodes; ++u)
    for (int64_t e = a.indptr[u]; e < a.indptr[u + 1]; ++e) same += a.labels[u] == a.labels[a.indices[e]];
  CHECK(double(same) / double(a.num_edges()) > 0.6);  // homophily 0.7 (+ chance)
  // Same-class feature rows are closer on average than different-class rows.
  auto dot = [&](int64_t u, int64_t v) {
    double s = 0;
    for (int64_t f = 0; f < a.feature_dim; ++f) s += a.features[u * a.feature_dim + f] * a.features[v * a.feature_dim + f];
    return s;
  };
  double in = 0, out = 0;
  int64_t ni = 0, no = 0;
  for (int64_t u = 0; u < 200; ++u)
    for (int64_t v = u + 1; v < 200; ++v) (a.labels[u] == a.labels[v] ? (in += dot(u, v), ++ni) : (out += dot(u, v), ++no));
  CHECK(in / ni > out / no);
}

TEST_CASE("SBM label_noise relabels that fraction of nodes and nothing else") {
  SbmParams p = gnntest::small_sbm(4000);
  const Graph clean = generate_sbm(p, 3);
  p.label_noise = 0.1;
  const Graph noisy = generate_sbm(p, 3);
  CHECK(noisy.fingerprint() == clean.fingerprint());  // same edges
  CHECK(std::equal(clean.features.begin(), clean.features.end(), noisy.features.begin()));
  int64_t changed = 0;
  for (int64_t v = 0; v < clean.num_nodes; ++v) {
    CHECK(noisy.labels[v] >= 0);
    CHECK(noisy.labels[v] < p.classes);
    changed += noisy.labels[v] != clean.labels[v];
  }
  CHECK(changed > 0.08 * clean.num_nodes);
  CHECK(changed < 0.12 * clean.num_nodes);
}

TEST_CASE("R-MAT: 2^scale nodes, skewed degrees, deterministic") {
  RmatParams p;
  p.scale = 12;
  p.features = 8;
  Graph a = generate_rmat(p, 1), b = generate_rmat(p, 1);
  CHECK(a.num_nodes == 4096);
  CHECK(a.fingerprint() == b.fingerprint());
  a.validate("rmat");
  int64_t maxd = 0;
  for (int64_t v = 0; v < a.num_nodes; ++v) maxd = std::max(maxd, a.degree(v));
  CHECK(maxd > 10 * a.num_edges() / a.num_nodes);  // power law: hubs far above the mean
}

TEST_CASE("graph source registry: every entry loads or explains what it needs") {
  GraphOptions o;
  o.sbm.nodes = 200;
  o.rmat.scale = 8;
  o.preset_scale = 0.002;
  o.preset_degree_scale = 0.02;
  for (const auto* e : graph_source_registry().entries()) {
    CAPTURE(e->name);
    if (e->name == "file") {
      CHECK_THROWS_AS(e->factory()->load(o, 1), ConfigError);
      continue;
    }
    Graph g = e->factory()->load(o, 1);
    g.validate(e->name);
    CHECK(g.num_nodes > 0);
  }
  o.preset_scale = 0.001;
  Graph r = graph_source_registry().create("reddit-like")->load(o, 1);
  CHECK(r.feature_dim == 602);
  CHECK(r.num_classes == 41);
}

TEST_CASE("graph generators stop within a block of a stop signal instead of finishing the graph") {
  // 2^20 nodes, 20M edges (160 MB, 400M draws): seconds of work on 2 cores; a SIGINT after 50 ms
  // must end it within one block of 65,536 edges, with Interrupted naming the signal.
  install_interrupt_handler();
  clear_interrupt();
  RmatParams p;
  p.scale = 20;
  p.edges = 20'000'000;
  p.features = 1;
  const auto t0 = std::chrono::steady_clock::now();
  std::thread signaller([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::raise(SIGINT);
  });
  std::string what;
  try {
    generate_rmat(p, 1);
  } catch (const Interrupted& e) {
    what = e.what();
  }
  signaller.join();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  clear_interrupt();
  CHECK_MESSAGE(what.find("R-MAT graph's edges stopped by SIGINT") != std::string::npos, what);
  CHECK_MESSAGE(s < 1.5, s);
  // The flag cleared, the same call runs to the end (a small graph) and is unchanged by the stop.
  p.scale = 10;
  p.edges = 0;
  CHECK(generate_rmat(p, 1).num_nodes == 1024);
}
