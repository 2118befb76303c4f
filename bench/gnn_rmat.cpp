// R-MAT 2^20 nodes, 16M generated edges (symmetrized + self loops ~ 31M nonzeros), 128 features,
// 2-layer GCN hidden 128: mlsys fp32 single-worker epoch time and peak RSS vs a plain PyTorch GCN
// (bench/gnn_pytorch_gcn.py, COO and CSR, the faster taken) with the same thread count, plus the
// SpMM kernel's effective bandwidth beside a memcpy bandwidth, all measured in this run.
// Each contender runs in its own process (so peak RSS is its own).
//
//   bench_gnn_rmat [--scale 20] [--edges 16000000] [--epochs 5] [--threads 2] [--python /usr/bin/python3]
//                  [--keep-graph]   (reuse / keep the generated graph file in the temp folder)
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "core/kernels/kernels.hpp"
#include "core/process/system.hpp"
#include "core/util/json.hpp"
#include "gnn/halo/halo_plan.hpp"
#include "gnn/graph/generators.hpp"
#include "gnn/graph/loaders.hpp"
#include "gnn/model/local_graph.hpp"
#include "gnn/train/trainer.hpp"

using namespace mlsys;
using namespace mlsys::gnn;

static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

static std::string run_capture(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  while (fgets(buf, sizeof buf, p)) out += buf;
  pclose(p);
  return out;
}

static Json last_json(const std::string& text) {
  size_t b = text.rfind('{');
  if (b == std::string::npos) return Json();
  try {
    return Json::parse(text.substr(b));
  } catch (const std::exception&) {
    return Json();
  }
}

static int child(const std::string& file, int epochs, int threads, bool precompute) {
  set_thread_count(threads);
  Graph g = map_binary_graph(file);
  TrainSetup s;
  s.gnn.parts = 1;
  s.gnn.epochs = epochs;
  s.gnn.model.hidden = 128;
  s.gnn.model.layers = 2;
  s.gnn.model.dropout = 0.5;
  s.gnn.fwd_bits = s.gnn.bwd_bits = 32;
  s.gnn.pipeline = false;
  s.gnn.eval_every = 1000000;
  s.gnn.model.precompute_first = precompute;
  s.gnn.trace_epochs = 0;
  s.threads = threads;
  TrainResult r = train(g, std::vector<int32_t>(static_cast<size_t>(g.num_nodes), 0), s);
  double t = 0;
  for (size_t i = 1; i < r.epochs.size(); ++i) t += r.epochs[i].epoch_s;
  Json j = Json::object();
  j["precompute_first"] = precompute;
  j["epoch_s"] = t / static_cast<double>(std::max<size_t>(1, r.epochs.size() - 1));
  j["loss"] = r.epochs.back().loss;
  j["peak_rss_bytes"] = peak_rss_bytes();
  std::printf("%s\n", j.dump().c_str());
  return 0;
}

// SpMM effective bandwidth (bytes a CSR SpMM must move: row pointers, columns, values, one
// gathered input row per nonzero, the output) and a memcpy bandwidth of a same-sized buffer.
static Json bandwidth(const Graph& g, int threads) {
  set_thread_count(threads);
  HaloPlan plan = build_halo_plan(g, std::vector<int32_t>(static_cast<size_t>(g.num_nodes), 0), 1, 0);
  LocalGraph lg = build_local_graph(cpu_context(), plan, Adjacency::gcn);
  Json j = Json::object();
  for (int64_t f : {int64_t{16}, int64_t{128}}) {
    Tensor x = Tensor::full({g.num_nodes, f}, 1.0f), y = Tensor::empty({g.num_nodes, f});
    kernels::spmm(cpu_context(), lg.adj, x, y);
    double best = 1e9;
    for (int rep = 0; rep < 3; ++rep) {
      double t = now();
      kernels::spmm(cpu_context(), lg.adj, x, y);
      best = std::min(best, now() - t);
    }
    const double nnz = static_cast<double>(lg.adj.nnz());
    const double bytes = (g.num_nodes + 1) * 8.0 + nnz * 8.0 + nnz * f * 4.0 + g.num_nodes * f * 4.0;
    j[fmt::format("spmm_f{}_s", f)] = best;
    j[fmt::format("spmm_f{}_gbps", f)] = bytes / best / 1e9;
  }
  std::vector<char> a(size_t{512} << 20, 1), b(size_t{512} << 20, 0);
  double best = 1e9;
  for (int rep = 0; rep < 3; ++rep) {
    double t = now();
    std::memcpy(b.data(), a.data(), a.size());
    best = std::min(best, now() - t);
  }
  j["memcpy_gbps"] = 2.0 * static_cast<double>(a.size()) / best / 1e9;  // read + write
  return j;
}

int main(int argc, char** argv) {
  int scale = 20, epochs = 5, threads = 2;
  int64_t edges = 16000000;
  std::string python = "/usr/bin/python3", train_file;
  bool precompute = false, keep_graph = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&] { return std::string(i + 1 < argc ? argv[++i] : ""); };
    if (a == "--scale") scale = std::stoi(next());
    else if (a == "--edges") edges = std::stoll(next());
    else if (a == "--epochs") epochs = std::stoi(next());
    else if (a == "--threads") threads = std::stoi(next());
    else if (a == "--python") python = next();
    else if (a == "--train") train_file = next();
    else if (a == "--precompute") precompute = next() == "1";
    else if (a == "--keep-graph") keep_graph = true;
  }
  if (!train_file.empty()) return child(train_file, epochs, threads, precompute);

  set_thread_count(threads);
  const std::string file =
      (std::filesystem::temp_directory_path() / fmt::format("mlsys_bench_rmat{}_{}.mlsg", scale, edges)).string();
  if (!keep_graph || !std::filesystem::exists(file)) {
    RmatParams p;
    p.scale = scale;
    p.edges = edges;
    p.features = 128;
    p.classes = 16;
    double t = now();
    Graph g = generate_rmat(p, 1);
    std::printf("graph: R-MAT 2^%d nodes, %lld generated edges -> %lld nonzeros with self loops (%.1f s)\n", scale,
                static_cast<long long>(edges), static_cast<long long>(g.num_edges() + g.num_nodes), now() - t);
    write_binary_graph(g, file);
  }
  {
    Graph g = map_binary_graph(file);
    if (keep_graph) std::printf("graph file: %s (kept)\n", file.c_str());
    Json bw = bandwidth(g, threads);
    std::printf("bandwidth: %s\n", bw.dump().c_str());
  }
  const std::string self = std::filesystem::canonical("/proc/self/exe").string();
  const std::string bench_dir = std::filesystem::path(__FILE__).parent_path().string();  // gnn_pytorch_gcn.py lives beside this file
  Json ours = last_json(run_capture(fmt::format("{} --train {} --epochs {} --threads {} --precompute 0", self, file, epochs, threads)));
  Json ours_pre = last_json(run_capture(fmt::format("{} --train {} --epochs {} --threads {} --precompute 1", self, file, epochs, threads)));
  Json coo = last_json(run_capture(fmt::format("{} {}/gnn_pytorch_gcn.py {} --layout coo --threads {} --epochs {} 2>&1", python,
                                               bench_dir, file, threads, epochs)));
  Json csr = last_json(run_capture(fmt::format("{} {}/gnn_pytorch_gcn.py {} --layout csr --threads {} --epochs {} 2>&1", python,
                                               bench_dir, file, threads, epochs)));
  std::printf("mlsys (layer 0 aggregated each epoch): %s\n", ours.dump().c_str());
  std::printf("mlsys (layer 0 precomputed once):      %s\n", ours_pre.dump().c_str());
  std::printf("pytorch coo: %s\npytorch csr: %s\n", coo.dump().c_str(), csr.dump().c_str());
  if (ours.is_object() && coo.is_object() && csr.is_object()) {
    const Json& best = coo["epoch_s"].as_number() <= csr["epoch_s"].as_number() ? coo : csr;
    Json& b = const_cast<Json&>(best);
    const double pt = b["epoch_s"].as_number(), prss = b["peak_rss_bytes"].as_number();
    std::printf("result: pytorch best = %s %.3f s/epoch, peak RSS %.2f GiB\n", b["layout"].as_string().c_str(), pt, prss / (1 << 30));
    for (Json* o : {&ours, &ours_pre})
      std::printf("result: mlsys precompute=%d %.3f s/epoch (%.3fx of pytorch), peak RSS %.2f GiB (%.3fx)\n",
                  (*o)["precompute_first"].as_bool() ? 1 : 0, (*o)["epoch_s"].as_number(), (*o)["epoch_s"].as_number() / pt,
                  (*o)["peak_rss_bytes"].as_number() / (1 << 30), (*o)["peak_rss_bytes"].as_number() / prss);
  } else {
    std::printf("result: pytorch reference did not run (install python3-torch: scripts/setup --bench)\n");
  }
  if (!keep_graph) std::filesystem::remove(file);
  return 0;
}
