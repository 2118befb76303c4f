// #12: loading coauthor_cs (18,333 nodes, 6,805 sparse features) and training one epoch on 4
// inproc workers stays within a memory bound built from the run's own sizes (docs/train-gnn.md,
// "Memory"). Runs the real binary twice: on coauthor_cs, and on a 6-node graph for the process floor
// (libraries, threads, pools' bookkeeping), whose peak RSS is subtracted.
#include <doctest/doctest.h>

#include <map>
#include <sstream>

#include "core/util/json.hpp"
#include "tests/common/test_util.hpp"
#include "tests/gnn/gnn_test_util.hpp"

using namespace mlsys;
using mlsys::test::read_text;
using mlsys::test::run_mlsys;
using mlsys::test::TempDir;

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

// One epoch, 4 parts, 1-bit pipelined halos: the configuration docs/BENCHMARKS.md measures.
Json run_one_epoch(const std::filesystem::path& out, const std::string& extra) {
  auto r = run_mlsys("train-gnn " + (test::source_dir() / "configs/repro/sylvie/accuracy_coauthor_cs.yaml").string() +
                     " --out " + out.string() +
                     " --set gnn.parts=4 --set gnn.epochs=1 --set gnn.eval_every=1 --set gnn.fwd_bits=1"
                     " --set gnn.bwd_bits=1 --set gnn.pipeline=true --set gnn.graph.binary_cache=false"
                     " --set gnn.partition_cache=false --set gnn.model.layers=2 --set gnn.model.hidden=64"
                     " --set run.progress=off " +
                     extra);
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  return Json::parse(read_text(out / "summary.json"));
}

std::map<std::string, std::string> read_meta(const std::filesystem::path& p) {
  std::map<std::string, std::string> m;
  std::istringstream in(read_text(p));
  for (std::string k, v; in >> k && std::getline(in, v);) m[k] = v.substr(v.find_first_not_of(' '));
  return m;
}

}  // namespace

TEST_CASE("coauthor_cs, 4 parts, one epoch: peak memory within 3 x sparse input + activations") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  const auto graph = data / "graphs/coauthor_cs";
  if (!std::filesystem::exists(graph / "meta.txt")) MLSYS_SKIP("no-shared-data", "no " << graph.string());
  TempDir t;
  gnn::gnntest::write_tiny_text_graph(t / "tiny");
  Json floor = run_one_epoch(t / "floor", "--set gnn.graph.path=" + (t / "tiny").string() + " --set gnn.partitioner=contiguous");
  Json run = run_one_epoch(t / "run", "");

  const auto meta = read_meta(graph / "meta.txt");
  const double n = std::stod(meta.at("nodes")), nnz = std::stod(meta.at("feature_nnz"));
  const double f = std::stod(meta.at("features")), c = std::stod(meta.at("classes"));
  const double p = 4, h = 64;
  const double edges = run["graph"]["directed_edges"].as_number();
  const double halo = run["partition"]["halo_rows_per_layer"].as_number();  // all parts together
  REQUIRE(halo > 0);
  // Sparse input: the feature CSR (f32 value + i32 column per nonzero, i64 row pointers) and the
  // adjacency CSR (i32 neighbour per directed edge, i64 row pointers), as loaded.
  const double sparse = nnz * 8 + (n + 1) * 8 + edges * 4 + (n + 1) * 8;
  // Activations: each GCN layer's outputs over the rows it computes them for, and their gradients.
  // Layer 0 (input halo cached): X W over owned + halo rows, A_hat (X W) over owned rows. Layer 1:
  // H W over owned rows, the same exchanged to owned + halo rows, A_hat (H W) over owned rows.
  const double local = n + halo;
  const double activations = 2 * 4 * (local * h + n * h + n * c + local * c + n * c);
  // Not in the bound, but in the peak: the model state (one copy of the parameters and Adam's two
  // moments, shared by the in-process workers, and each worker's gradient while it is formed).
  const double params = f * h + h + h * c + c;
  const double model = (3 + p) * params * 4;
  const double bound = 3 * sparse + activations;
  const double above = run["peak_rss_bytes"].as_number() - floor["peak_rss_bytes"].as_number();
  MESSAGE("peak RSS " << run["peak_rss_bytes"].as_number() / kMiB << " MiB, floor " << floor["peak_rss_bytes"].as_number() / kMiB
                      << " MiB, above the floor " << above / kMiB << " MiB; sparse input " << sparse / kMiB
                      << " MiB, activations " << activations / kMiB << " MiB: bound " << bound / kMiB
                      << " MiB (the model state within it: " << model / kMiB << " MiB)");
  CHECK(above <= bound);
  // The features stay sparse end to end: a dense copy alone would be over four times the bound.
  CHECK(n * f * 4 > 4 * bound);
}
