// The Helios compatibility mode against the Helios simulator's own outputs
// (../shared/reference/helios_gavel): every per-job row and every integer sum must match.
#include <doctest/doctest.h>

#include <map>
#include <sstream>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "core/util/strings.hpp"
#include "sim/helios/helios_input.hpp"
#include "sim/helios/helios_sim.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys::sim::helios;

namespace {

std::vector<int> indices_of(const std::vector<Job>& jobs, const std::string& vc) {
  std::vector<int> idx;
  for (int i = 0; i < static_cast<int>(jobs.size()); ++i)
    if (jobs[i].vc == vc) idx.push_back(i);
  return idx;
}

}  // namespace

TEST_CASE("helios compat: reproduces the reference per-job rows and sums exactly") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  const auto ref = data / "../reference/helios_gavel";
  auto jobs = load_cluster_log((ref / "cluster_log.csv").string());
  load_priorities((ref / "qssf_priority.csv").string(), jobs);
  auto vcs = load_vc_config((ref / "vc_config.csv").string());
  REQUIRE(vcs.size() == 5);

  // results.csv: vc,policy,jobs,avg_jct_s,avg_queue_s,sum_jct_s,sum_queue_s,makespan_s,preemptions
  std::map<std::string, std::vector<std::string>> sums;
  {
    std::istringstream in(mlsys::read_file(ref / "results.csv"));
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
      auto f = mlsys::split(line, ',');
      sums[f[0] + "/" + f[1]] = f;
    }
  }
  int checked_rows = 0;
  for (const auto& policy : policies()) {
    // perjob: user,vc,jobname,gpu_num,state,submit_time,duration,remain,start_time,end_time,
    //         ckpt_times,queue,jct,status,nodes,priority,random
    std::map<std::string, std::vector<std::string>> rows;
    std::istringstream in(mlsys::read_file(ref / "perjob" / (policy + ".csv.gz")));
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
      // The nodes column holds commas inside brackets: split around it.
      auto open = line.find("[{"), close = line.find("}]");
      REQUIRE(open != std::string::npos);
      if (open > 0 && line[open - 1] == '"') --open;
      close += line[close + 2] == '"' ? 4 : 3;
      auto head = mlsys::split(line.substr(0, open), ',');
      auto tail = mlsys::split(line.substr(close), ',');
      head.pop_back();
      head.insert(head.end(), tail.begin(), tail.end());  // ... status, priority, random
      rows[head[2]] = head;
    }
    for (const auto& [vc, cfg] : vcs) {
      auto idx = indices_of(jobs, vc);
      auto res = simulate_vc(jobs, idx, vc, cfg.nodes, cfg.gpus_per_node, policy);
      CAPTURE(vc);
      CAPTURE(policy);
      const auto& s = sums.at(vc + "/" + policy);
      CHECK(res.jobs == std::stoll(s[2]));
      CHECK(res.sum_jct == std::stoll(s[5]));
      CHECK(res.sum_queue == std::stoll(s[6]));
      CHECK(res.makespan == std::stoll(s[7]));
      CHECK(res.preemptions == std::stoll(s[8]));
      int mismatches = 0;
      for (size_t k = 0; k < idx.size(); ++k) {
        const auto& job = jobs[idx[k]];
        const auto& r = res.results[k];
        auto it = rows.find(job.name);
        REQUIRE(it != rows.end());
        const auto& f = it->second;
        bool same = r.start == static_cast<int64_t>(std::stod(f[8])) && r.end == static_cast<int64_t>(std::stod(f[9])) &&
                    r.preemptions == std::stoi(f[10]) && r.queue == static_cast<int64_t>(std::stod(f[11])) &&
                    r.jct == static_cast<int64_t>(std::stod(f[12])) && r.priority == std::stoll(f[14]);
        if (!same && ++mismatches <= 3)
          MESSAGE(job.name << ": ours start " << r.start << " end " << r.end << " queue " << r.queue << " ckpt "
                           << r.preemptions << " prio " << r.priority << "; reference " << f[8] << " " << f[9]
                           << " " << f[11] << " " << f[10] << " " << f[14]);
        ++checked_rows;
      }
      CHECK(mismatches == 0);
    }
  }
  CHECK(checked_rows == 4 * 3741);
}

TEST_CASE("helios compat: inputs on which the original loops forever are errors") {
  std::vector<Job> jobs(2);
  jobs[0] = Job{"u", "a", "a-0", "Pass", 1, 0, 10, 0, false};
  jobs[1] = Job{"u", "a", "a-1", "Pass", 16, 5, 10, 0, false};
  CHECK_THROWS_WITH_AS(simulate_vc(jobs, {0, 1}, "a", 1, 8, "fifo"), doctest::Contains("needs 16 GPUs"),
                       mlsys::InputError);
  jobs[1].gpus = 1;
  jobs[1].duration = 0;
  CHECK_THROWS_WITH_AS(simulate_vc(jobs, {0, 1}, "a", 1, 8, "srtf"), doctest::Contains("duration 0"),
                       mlsys::InputError);
}

TEST_CASE("helios compat: hand-computed tiny trace (1 node of 8 GPUs)") {
  // a: 8 GPUs at 0 for 10 s; b: 4 GPUs at 1 for 5 s; c: 2 GPUs at 2 for 3 s.
  std::vector<Job> jobs = {{"u", "v", "a", "Pass", 8, 0, 10, 3, true},
                           {"u", "v", "b", "Pass", 4, 1, 5, 1, true},
                           {"u", "v", "c", "Pass", 2, 2, 3, 1, true}};
  auto fifo = simulate_vc(jobs, {0, 1, 2}, "v", 1, 8, "fifo");
  // a runs 0-10; b and c start at 10 (b first, then c fits next to it).
  CHECK(fifo.results[0].end == 10);
  CHECK(fifo.results[1].start == 10);
  CHECK(fifo.results[1].end == 15);
  CHECK(fifo.results[2].start == 10);
  CHECK(fifo.results[2].end == 13);
  CHECK(fifo.sum_queue == 0 + 9 + 8);
  auto sjf = simulate_vc(jobs, {0, 1, 2}, "v", 1, 8, "sjf");
  CHECK(sjf.results[2].start == 10);  // c is shortest but both fit at 10 anyway
  // SRTF: at t=1, b (remain 5) sorts before a (remain 8): a is preempted (30 s penalty: 8 GPUs).
  auto srtf = simulate_vc(jobs, {0, 1, 2}, "v", 1, 8, "srtf");
  CHECK(srtf.results[0].preemptions == 1);
  CHECK(srtf.results[1].start == 1);
  CHECK(srtf.results[1].end == 1 + 5 + 1);
  CHECK(srtf.results[2].start == 2);
  CHECK(srtf.results[2].end == 2 + 3 + 1);
  // At t=1 a has remain 9, +30 = 39; it resumes at 7 (b ended) -> ends at 7 + 39 + 1; queue 7 - 1.
  CHECK(srtf.results[0].end == 47);
  CHECK(srtf.results[0].queue == 6);
}
