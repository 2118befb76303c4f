// The trace and tracegen config sections: keys, registry-backed format choices, bounds.
#include <doctest/doctest.h>

#include <string>

#include "core/config/resolve.hpp"
#include "core/util/error.hpp"
#include "sched/workload/traces/generator.hpp"
#include "sched/workload/traces/trace_options.hpp"

using namespace mlsys;
using namespace mlsys::workload;

namespace {
config::ResolvedConfig resolve_with(const std::vector<std::string>& sets) {
  return config::resolve({&trace_section(), &tracegen_section()}, {}, sets);
}
}  // namespace

TEST_CASE("trace section: defaults, overrides and registry-backed formats") {
  auto c = resolve_with({});
  CHECK(c.get(trace_section()).format == "auto");
  CHECK(c.get(trace_section()).gpu_type == "v100");
  CHECK(c.get(tracegen_section()).arrival == "poisson");
  auto d = resolve_with({"trace.format=openb", "trace.lenient=true", "trace.vcs=[a, b]", "tracegen.jobs=50"});
  CHECK(d.get(trace_section()).format == "openb");
  CHECK(d.get(trace_section()).lenient);
  CHECK(d.get(trace_section()).vcs == std::vector<std::string>{"a", "b"});
  CHECK(d.get(tracegen_section()).jobs == 50);
  try {
    resolve_with({"trace.format=gavle"});
    FAIL("expected a ConfigError");
  } catch (const ConfigError& e) {
    CHECK(std::string(e.what()).find("did you mean 'gavel'") != std::string::npos);
  }
  CHECK_THROWS_AS(resolve_with({"trace.states=[done]"}), ConfigError);
  CHECK_THROWS_AS(resolve_with({"tracegen.arrival=weibull"}), ConfigError);
  CHECK_THROWS_AS(resolve_with({"tracegen.failed_fraction=2"}), ConfigError);
}
