// The links model's per-job network demand, from profile, GPUs and iteration rate (by hand).
#include <doctest/doctest.h>

#include "sim/run/simulation.hpp"

using namespace mlsys;
using namespace mlsys::sim;

TEST_CASE("comm demand: bytes per iteration x iterations per second, in Gbit/s") {
  std::vector<workload::JobSpec> jobs(4);
  jobs[0].name = "ResNet-50 (batch size 64)";  // Gavel: steps known
  jobs[0].num_gpus = 16;
  jobs[0].total_steps = 1000;
  jobs[0].duration = 500;
  jobs[1].name = "bert-u3";  // generated: no steps, sim.comm_iteration_s
  jobs[1].num_gpus = 4;
  jobs[1].duration = 100;
  jobs[2].name = "bert-u4";  // one GPU: no all-reduce
  jobs[2].num_gpus = 1;
  jobs[2].duration = 100;
  jobs[3].name = "unknown";  // default size (25.6M)
  jobs[3].num_gpus = 2;
  jobs[3].duration = 100;
  std::vector<EngineJob> all(jobs.size());
  SimOptions o;
  o.comm_iteration_s = 0.25;
  set_comm_demand(jobs, o, all);
  // 2 x 15/16 x 4 x 25.56e6 = 191.7e6 B per iteration, 2 iterations/s: 3.0672 Gbit/s.
  CHECK(all[0].comm_gbps == doctest::Approx(191.7e6 * 2 * 8 / 1e9));
  // 2 x 3/4 x 4 x 110e6 = 660e6 B, 4 iterations/s: 21.12 Gbit/s.
  CHECK(all[1].comm_gbps == doctest::Approx(21.12));
  CHECK(all[2].comm_gbps == 0);
  // 2 x 1/2 x 4 x 25.6e6 = 102.4e6 B, 4/s: 3.2768 Gbit/s.
  CHECK(all[3].comm_gbps == doctest::Approx(3.2768));
}
