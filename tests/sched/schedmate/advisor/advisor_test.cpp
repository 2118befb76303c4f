#include <doctest/doctest.h>

#include <filesystem>

#include "core/util/error.hpp"
#include "sched/schedmate/advisor/advisor.hpp"
#include "sched/schedmate/generator/job_generator.hpp"
#include "sched/schedmate/jobs/job_source.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
using namespace mlsys::schedmate;

namespace {
AdvisedJob job(const std::string& id, const std::string& cmd, double submit, double duration, double steps) {
  AdvisedJob j;
  j.id = id;
  j.user = "u";
  j.name = "n";
  j.text = {cmd, "", "", 1, steps, ""};
  j.facts = extract_facts(j.text);
  j.submit_time = submit;
  j.duration = duration;
  return j;
}
}  // namespace

TEST_CASE("k-NN predicts from the same configuration's throughput and falls back without history") {
  Advisor a;
  Prediction p0 = a.predict(job("q", "python main.py --batch_size 32", 0, 0, 1000));
  CHECK(p0.source == "prior");
  a.add_history(job("h1", "python main.py -a resnet18 --batch_size 32", 0, 100, 1000));  // 10 steps/s
  a.add_history(job("h2", "python main.py -a resnet18 --batch_size 32", 0, 210, 2000));
  Prediction p = a.predict(job("q", "python main.py -a resnet18 --batch_size 32", 0, 0, 5000));
  CHECK(p.source == "knn_exact");
  CHECK(p.duration_s == doctest::Approx(500).epsilon(0.06));
  CHECK(p.uncertainty_s > 0);
  CHECK(p.neighbors.size() == 2);
  // Another batch size of the same model: samples/s carries over.
  Prediction q = a.predict(job("q2", "python main.py -a resnet18 --batch_size 64", 0, 0, 5000));
  CHECK(q.source == "knn");
  CHECK(q.duration_s == doctest::Approx(1000).epsilon(0.1));
  // Nothing similar: user statistics (3 jobs needed), else global.
  Prediction g = a.predict(job("q3", "bash run_totally_different_thing.sh", 0, 0, 0));
  CHECK((g.source == "global" || g.source == "knn"));
}

TEST_CASE("online protocol: only jobs finished before the submit time are history") {
  std::vector<AdvisedJob> jobs = {job("a", "python main.py -a resnet18 --batch_size 32", 0, 100, 1000),
                                  job("b", "python main.py -a resnet18 --batch_size 32", 50, 100, 1000),
                                  job("c", "python main.py -a resnet18 --batch_size 32", 100, 100, 1000)};
  auto r = predict_online(jobs, {});
  CHECK(r.schedmate[0].source == "prior");
  CHECK(r.schedmate[1].source == "prior");   // a is still running at t=50
  CHECK(r.schedmate[2].source == "knn_exact");  // a finished at t=100
  CHECK(r.schedmate[2].neighbors == std::vector<std::string>{"a"});
  CHECK(r.helios[2] == doctest::Approx(100));
}

TEST_CASE("generated job stream: advisor well ahead of the Helios-style estimate") {
  JobGenSpec g;
  g.jobs = 400;
  auto jobs = generate_jobs(g);
  for (auto& j : jobs) j.facts = extract_facts(j.text);
  auto r = predict_online(jobs, {});
  std::vector<double> p, h, t;
  for (size_t i = 0; i < jobs.size(); ++i) {
    p.push_back(r.schedmate[i].duration_s);
    h.push_back(r.helios[i]);
    t.push_back(jobs[i].duration);
  }
  MESSAGE("generated: within 10% " << within(p, t, 0.1) << " / 50% " << within(p, t, 0.5) << "; Helios-style "
                                   << within(h, t, 0.1) << " / " << within(h, t, 0.5));
  CHECK(within(p, t, 0.5) >= 0.8);
  CHECK(within(p, t, 0.1) >= 0.5);
  CHECK(within(p, t, 0.5) > within(h, t, 0.5));
}

TEST_CASE("Philly/Gavel VC traces: >= 80% within +-50% and >= 50% within +-10% (online)") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  std::vector<double> P, H, T;
  for (auto& e : std::filesystem::directory_iterator(data / "traces/philly_gavel")) {
    if (e.path().extension() != ".trace") continue;
    JobSourceOptions o;
    o.path = e.path().string();
    o.throughputs = (data / "jobs/gavel_isolated_throughputs.csv").string();
    auto jobs = load_jobs(o);
    for (auto& j : jobs) j.facts = extract_facts(j.text);
    auto r = predict_online(jobs, {});
    for (size_t i = 0; i < jobs.size(); ++i) {
      P.push_back(r.schedmate[i].duration_s);
      H.push_back(r.helios[i]);
      T.push_back(jobs[i].duration);
    }
  }
  MESSAGE(T.size() << " jobs: SchedMate within 10% " << within(P, T, 0.1) << ", 50% " << within(P, T, 0.5)
                   << "; Helios-style " << within(H, T, 0.1) << ", " << within(H, T, 0.5));
  CHECK(T.size() > 8000);
  CHECK(within(P, T, 0.5) >= 0.8);
  CHECK(within(P, T, 0.1) >= 0.5);
}

TEST_CASE("schedmate.exclude_ids: named jobs are left out of JSONL and trace job sources alike") {
  JobSourceOptions o;
  o.path = (test::source_dir() / "tests/sched/schedmate/fixtures/jobs.jsonl").string();
  const size_t all = load_jobs(o).size();
  o.exclude_ids = {"b1", "a2"};
  auto jobs = load_jobs(o);
  CHECK(jobs.size() == all - 2);
  for (const auto& j : jobs) CHECK((j.id != "b1" && j.id != "a2"));
  o.exclude_ids = {"nope"};
  CHECK_THROWS_AS(load_jobs(o), InputError);
  o.path = (test::source_dir() / "tests/sched/workload/traces/fixtures/native.csv").string();
  o.exclude_ids = {"n2"};
  jobs = load_jobs(o);
  CHECK(jobs.size() == 3);
  for (const auto& j : jobs) CHECK(j.id != "n2");
  o.exclude_ids = {"nope"};
  CHECK_THROWS_AS(load_jobs(o), ConfigError);
}

TEST_CASE("JSONL jobs: parsed, sorted, errors name the line") {
  auto jobs = parse_jobs_jsonl(
      "{\"id\":\"b\",\"command\":\"python x.py --batch_size 8\",\"submit_time\":5,\"duration\":10}\n\n"
      "{\"id\":\"a\",\"user\":\"u\",\"submit_time\":1,\"num_gpus\":4}\n",
      "jobs.jsonl");
  REQUIRE(jobs.size() == 2);
  CHECK(jobs[0].id == "a");
  CHECK(jobs[0].text.num_gpus == 4);
  CHECK(std::isnan(jobs[0].duration));
  CHECK(jobs[1].duration == 10);
  CHECK_THROWS_WITH_AS(parse_jobs_jsonl("{\"id\":1}\nnot json\n", "j.jsonl"), doctest::Contains("j.jsonl:2"), InputError);
  CHECK_THROWS_AS(parse_jobs_jsonl("{\"submit_time\":\"x\"}\n", "j.jsonl"), InputError);
  auto back = parse_jobs_jsonl(jobs_to_jsonl(jobs), "rt");
  CHECK(back.size() == 2);
  CHECK(back[1].text.command == jobs[1].text.command);
}
