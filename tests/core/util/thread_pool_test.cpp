#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "core/util/thread_pool.hpp"

TEST_CASE("parallel_for runs every task once and reports progress serially") {
  for (int threads : {1, 2, 5}) {
    std::vector<std::atomic<int>> hits(100);
    size_t last_done = 0;
    bool monotone = true;
    mlsys::ParallelOptions o;
    o.threads = threads;
    o.on_done = [&](size_t d) {
      monotone = monotone && d == last_done + 1;
      last_done = d;
    };
    auto errors = mlsys::parallel_for(hits.size(), o, [&](size_t i) { hits[i]++; });
    CHECK(errors.empty());
    CHECK(monotone);
    CHECK(last_done == hits.size());
    for (auto& h : hits) CHECK(h.load() == 1);
  }
}

TEST_CASE("parallel_for rethrows the first failure, or collects one error slot per task") {
  mlsys::ParallelOptions o;
  o.threads = 2;
  CHECK_THROWS_AS(mlsys::parallel_for(10, o, [](size_t i) {
                    if (i == 3) throw std::runtime_error("task 3");
                  }),
                  std::runtime_error);
  o.collect_errors = true;
  auto errors = mlsys::parallel_for(10, o, [](size_t i) {
    if (i % 4 == 1) throw std::runtime_error("odd");
  });
  REQUIRE(errors.size() == 10);
  for (size_t i = 0; i < 10; ++i) CHECK(static_cast<bool>(errors[i]) == (i % 4 == 1));
}

TEST_CASE("parallel_for starts no task after stop() says so") {
  mlsys::ParallelOptions o;
  std::atomic<int> ran{0};
  o.stop = [&] { return ran.load() >= 3; };
  mlsys::parallel_for(50, o, [&](size_t) { ran++; });
  CHECK(ran.load() == 3);
  CHECK(mlsys::parallel_workers(0, 4) == 1);
  CHECK(mlsys::parallel_workers(3, 8) == 3);
}
