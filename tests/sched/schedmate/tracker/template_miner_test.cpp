#include <doctest/doctest.h>

#include "sched/schedmate/eval/metrics.hpp"
#include "sched/schedmate/tracker/template_miner.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys::schedmate;

TEST_CASE("Drain groups lines that differ only in parameters") {
  TemplateMiner m;
  int a = m.add("Connection from 10.0.0.1 closed after 35 s");
  int b = m.add("Connection from 10.0.0.7 closed after 2 s");
  int c = m.add("Disk sda1 is 91% full");
  int d = m.add("Disk sdb2 is 97% full");
  CHECK(a == b);
  CHECK(c == d);
  CHECK(a != c);
  CHECK(m.template_text(a) == "Connection from <*> closed after <*> s");
  CHECK(m.tokenize("x=12 y").front() == "x=<*>");
  CHECK(token_matches("it=<*>", "it=123"));
  CHECK_FALSE(token_matches("it=<*>", "tot=123"));
}

TEST_CASE("grouping accuracy metric") {
  CHECK(grouping_accuracy({0, 0, 1, 1}, {"a", "a", "b", "b"}) == 1.0);
  CHECK(grouping_accuracy({0, 0, 0, 1}, {"a", "a", "b", "b"}) == 0.0);
  CHECK(grouping_accuracy({0, 0, 1, 2}, {"a", "a", "b", "b"}) == 0.5);
  CHECK(grouping_accuracy({}, {}) == 0.0);
}

TEST_CASE("template mining on loghub HPC_2k reaches grouping accuracy >= 0.88") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  MiningReport r = evaluate_mining((data / "jobs/loghub/HPC_2k.log_structured.csv").string());
  MESSAGE("HPC_2k: " << r.lines << " lines, " << r.groups << " groups (truth " << r.truth_groups
                     << "), grouping accuracy " << r.grouping_accuracy);
  CHECK(r.lines == 2000);
  CHECK(r.grouping_accuracy >= 0.88);
}
