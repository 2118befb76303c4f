// Participant-phase scaling: the same plan (4 participants, same pool) run by 1 inproc rank and by
// 2 inproc ranks, BLAS single-threaded in both, so the comparison is "one core vs two cores doing
// the same total work". Priors are trained once beforehand (they are the public models).
//   bench_dataopt_participants [pool_size=20000] [repeats=3]
// Uses Fashion-MNIST from /usr/share/datasets/fashion-mnist when installed, else synthetic images.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "core/comm/factory.hpp"
#include "core/runtime/system.hpp"
#include "dataopt/pipeline/participants.hpp"
#include "dataopt/pipeline/priors.hpp"

using namespace mlsys;
using namespace mlsys::dataopt;

int main(int argc, char** argv) {
  const int64_t pool = argc > 1 ? std::atoll(argv[1]) : 20000;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 3;
  const auto root = std::filesystem::temp_directory_path() / "mlsys_bench_dataopt_participants";
  std::filesystem::create_directories(root);
  DataSourceSpec ds;
  ds.synthetic_train = 20000 + pool;
  DataSource data(ds);
  Plan plan;
  plan.priors = parse_prior_specs({YAML::Load(R"([
    {name: strong, kind: supervised, arch: "mlp:256,128", rows: [0, 10000], epochs: 1},
    {name: coarse, kind: supervised, arch: "cnn:8:64", rows: [10000, 12000], labels: coarse, epochs: 1},
    {name: dae, kind: dae, arch: "mlp:96", rows: [12000, 16000], epochs: 1},
    {name: random, kind: random, arch: "cnn:8,16:128"}])"), "bench"});
  plan.pool_begin = 20000;
  plan.pool_size = pool;
  plan.priors_dir = root / "priors";
  set_thread_count(2);
  for (int k = 0; k < plan.participants(); ++k) obtain_prior(plan, k, build_context(plan, data, k, ""));
  set_thread_count(1);
  fmt::print("participant phase, {} participants, pool {} ({}), one BLAS thread per rank\n", plan.participants(), pool,
             data.describe());
  double best[3] = {0, 1e30, 1e30};
  for (int rep = 0; rep < repeats; ++rep)
    for (int ranks : {1, 2}) {
      plan.dataset_dir = root / ("opt" + std::to_string(ranks));
      CommOptions co;
      const auto t0 = std::chrono::steady_clock::now();
      comm::run_inproc(ranks, co, [&](comm::Communicator& c) { run_participants(c, plan, data, ""); });
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      best[ranks] = std::min(best[ranks], s);
      fmt::print("  run {} ranks {}: {:.3f} s\n", rep + 1, ranks, s);
    }
  fmt::print("best of {}: K=1 rank {:.3f} s, K=2 ranks {:.3f} s, speedup {:.2f}x\n", repeats, best[1], best[2],
             best[1] / best[2]);
  std::filesystem::remove_all(root);
  return 0;
}
