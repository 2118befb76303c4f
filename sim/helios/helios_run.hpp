#pragma once
// `mlsys simulate helios`: runs the Helios compatibility mode (and, optionally, the same inputs
// in the event-driven engine) and writes both tables side by side.
#include <string>
#include <vector>

#include "sim/helios/helios_input.hpp"
#include "sim/helios/helios_sim.hpp"

namespace mlsys {
class RunContext;
}

namespace mlsys::sim {

void helios_mode(RunContext& ctx);

namespace helios {
// Runs every (VC, policy) pair on up to `threads` threads; results in (policy, VC) order.
std::vector<VcResult> run_all(const std::vector<Job>& jobs, const std::map<std::string, VcNodes>& vcs,
                              const std::vector<std::string>& policies, int threads);
// The same inputs in the event-driven engine (consolidate placer, oracle durations; QSSF uses the
// priority input as its estimate), summarised the same way.
std::vector<VcResult> run_event_driven(const std::vector<Job>& jobs, const std::map<std::string, VcNodes>& vcs,
                                       const std::vector<std::string>& policies, int threads);
}  // namespace helios

}  // namespace mlsys::sim
