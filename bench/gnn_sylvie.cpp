// Sylvie properties measured on this machine (each part prints its comparison, measured in the same run):
//   accuracy  100k-node SBM: 1-bit + pipeline on 4 METIS parts vs fp32 single worker (test accuracy)
//   overlap   link model on (modeled time slept by the transport): wait time in pipelined epochs vs
//             modeled communication time, beside the same run synchronous; the first --warmup
//             epochs (default 3) are reported apart: they first-touch the pools' and messages'
//             memory, which on a VM costs up to hundreds of ms per epoch
//   memory    peak RSS and pool peak of the fp32 vs the 1-bit path, each in its own process
//
//   bench_gnn_sylvie [accuracy|overlap|memory|all] [--nodes 100000] [--epochs 100] [--threads 2]
//                    [--gbps 0.5] [--overlap-parts 2,4] [--link-schedule preempt] [--warmup 3]
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "core/process/system.hpp"
#include "core/util/json.hpp"
#include "core/util/strings.hpp"
#include "gnn/graph/generators.hpp"
#include "gnn/partition/partitioner.hpp"
#include "gnn/train/trainer.hpp"

using namespace mlsys;
using namespace mlsys::gnn;

namespace {

int threads = 2;
int warmup = 3;  // overlap: epochs left out of the steady-state means (memory first touched)
std::string link_schedule = CommOptions().link_schedule;  // comm.link_schedule of the overlap runs

Graph sbm(int64_t nodes, int64_t features) {
  SbmParams p;
  p.nodes = nodes;
  p.classes = 10;
  p.avg_degree = 16;
  p.homophily = 0.6;
  p.features = features;
  p.feature_signal = 0.12;
  p.train_fraction = 0.1;
  p.val_fraction = 0.1;
  return generate_sbm(p, 1);
}

TrainSetup setup(int parts, int bits, bool pipeline, int epochs) {
  TrainSetup s;
  s.gnn.parts = parts;
  s.gnn.epochs = epochs;
  s.gnn.model.hidden = 128;
  s.gnn.model.layers = 2;
  s.gnn.model.dropout = 0.3;
  s.gnn.weight_decay = 0;
  s.gnn.fwd_bits = s.gnn.bwd_bits = bits;
  s.gnn.pipeline = pipeline;
  s.gnn.model.aggregate_first = true;
  s.gnn.model.precompute_first = true;
  s.gnn.eval_every = epochs;
  s.gnn.trace_epochs = 0;
  s.threads = threads;
  return s;
}

std::vector<int32_t> owner(const Graph& g, int parts) {
  PartitionParams pp;
  pp.parts = parts;
  return partition_cached(g, "metis", pp, "");
}

void accuracy(int64_t nodes, int epochs) {
  Graph g = sbm(nodes, 64);
  std::printf("accuracy: SBM %lld nodes, %lld directed edges, 64 features, 10 classes, GCN 2x128, %d epochs\n",
              static_cast<long long>(g.num_nodes), static_cast<long long>(g.num_edges()), epochs);
  TrainResult ref = train(g, owner(g, 1), setup(1, 32, false, epochs));
  TrainResult low = train(g, owner(g, 4), setup(4, 1, true, epochs));
  std::printf("result: fp32 1 worker test %.2f%% | 1-bit pipelined 4 METIS parts test %.2f%% | difference %.2f points\n",
              100 * ref.final_test, 100 * low.final_test, 100 * (low.final_test - ref.final_test));
}

void overlap(int64_t nodes, int epochs, double gbps, int parts) {
  Graph g = sbm(nodes, 128);
  auto own = owner(g, parts);
  for (bool pipeline : {false, true}) {
    TrainSetup s = setup(parts, 32, pipeline, epochs);
    s.comm.link_model = true;
    s.comm.link_sleep = true;
    s.comm.link_bandwidth_gbps = gbps;
    s.comm.link_schedule = link_schedule;
    s.gnn.model.layers = 3;
    TrainResult r = train(g, own, s);
    double wait = 0, comm = 0, compute = 0, quant = 0, reduce = 0, epoch = 0, warm = 0;
    int n = 0, nwarm = 0;
    for (const auto& e : r.epochs)
      if (e.epoch < warmup) {
        warm += e.epoch_s;
        ++nwarm;
      } else if (e.stale == pipeline) {
        wait += e.mean.wait_s;
        comm += e.mean.comm_s;
        compute += e.mean.compute_s;
        quant += e.mean.quant_s;
        reduce += e.mean.reduce_s;
        epoch += e.epoch_s;
        ++n;
      }
    n = std::max(n, 1);
    std::printf("result: P=%d %s epochs (link %.2f GB/s modeled, %s): compute %.1f ms, modeled comm %.1f ms, wait %.1f ms "
                "(wait/comm = %.1f%%), encode+decode %.1f ms, all-reduce %.1f ms, epoch %.1f ms "
                "(epoch / max(compute, comm) = %.2f); %d steady epochs, %d warm-up epochs %.1f ms each\n",
                parts, pipeline ? "pipelined" : "synchronous", gbps, link_schedule.c_str(), 1e3 * compute / n, 1e3 * comm / n, 1e3 * wait / n,
                comm > 0 ? 100 * wait / comm : 0.0, 1e3 * quant / n, 1e3 * reduce / n, 1e3 * epoch / n,
                std::max(compute, comm) > 0 ? epoch / std::max(compute, comm) : 0.0, n, nwarm, nwarm ? 1e3 * warm / nwarm : 0.0);
  }
}

int memory_child(int bits, int64_t nodes, int epochs) {
  Graph g = sbm(nodes, 128);
  TrainSetup s = setup(4, bits, true, epochs);
  train(g, owner(g, 4), s);
  Json j = Json::object();
  j["bits"] = bits;
  j["peak_rss_bytes"] = peak_rss_bytes();
  j["memory"] = memory_report();
  std::printf("%s\n", j.dump().c_str());
  return 0;
}

Json run_child(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  char buf[1 << 14];
  while (p && fgets(buf, sizeof buf, p)) out = buf;
  if (p) pclose(p);
  try {
    return Json::parse(out);
  } catch (const std::exception&) {
    return Json();
  }
}

void memory(int64_t nodes, int epochs) {
  const std::string self = std::filesystem::canonical("/proc/self/exe").string();
  Json a = run_child(fmt::format("{} memory-child --bits 32 --nodes {} --epochs {} --threads {}", self, nodes, epochs, threads));
  Json b = run_child(fmt::format("{} memory-child --bits 1 --nodes {} --epochs {} --threads {}", self, nodes, epochs, threads));
  if (!a.is_object() || !b.is_object()) {
    std::printf("result: memory children failed\n");
    return;
  }
  const double ra = a["peak_rss_bytes"].as_number(), rb = b["peak_rss_bytes"].as_number();
  std::printf("result: peak RSS fp32 %.1f MiB, 1-bit %.1f MiB, ratio %.3f (4 workers, pipelined, SBM %lld nodes, hidden 128)\n",
              ra / 1048576, rb / 1048576, rb / ra, static_cast<long long>(nodes));
  std::printf("pools fp32: %s\npools 1-bit: %s\n", a["memory"].dump().c_str(), b["memory"].dump().c_str());
}

}  // namespace

int main(int argc, char** argv) {
  std::string what = argc > 1 && argv[1][0] != '-' ? argv[1] : "all";
  int64_t nodes = 100000;
  int epochs = 100, bits = 32;
  double gbps = 0.5;
  std::vector<int> overlap_parts = {2, 4};
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&] { return std::string(i + 1 < argc ? argv[++i] : "0"); };
    if (a == "--nodes") nodes = std::stoll(next());
    else if (a == "--epochs") epochs = std::stoi(next());
    else if (a == "--threads") threads = std::stoi(next());
    else if (a == "--bits") bits = std::stoi(next());
    else if (a == "--gbps") gbps = std::stod(next());
    else if (a == "--warmup") warmup = std::stoi(next());
    else if (a == "--link-schedule") link_schedule = next();
    else if (a == "--overlap-parts") {
      overlap_parts.clear();
      for (const auto& part : split(next(), ','))
        if (!part.empty()) overlap_parts.push_back(std::stoi(part));
    }
  }
  set_thread_count(threads);
  if (what == "memory-child") return memory_child(bits, nodes, epochs);
  if (what == "accuracy" || what == "all") accuracy(nodes, epochs);
  if (what == "overlap" || what == "all")
    for (int parts : overlap_parts) overlap(std::min<int64_t>(nodes, 50000), std::min(epochs, 40), gbps, parts);
  if (what == "memory" || what == "all") memory(nodes, std::min(epochs, 10));
  return 0;
}
