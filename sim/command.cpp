#include "sim/command.hpp"

#include "core/runtime/run_options.hpp"
#include "sched/workload/traces/generator.hpp"
#include "sched/workload/traces/trace_options.hpp"
#include "sim/run/fill.hpp"
#include "sim/run/sim_options.hpp"

namespace mlsys::sim {

// The modes are the files in sim/modes/ (and sim/helios/helios_run.cpp), each registered with
// add_command_mode("simulate", ...).
const CommandSpec& simulate_command() {
  static const CommandSpec spec{
      "simulate",
      "AnalySIM: trace-driven simulator of a multi-tenant GPU cluster (policies, placers, Helios mode)",
      "  mlsys simulate                                  # quickstart: a small generated trace, FIFO\n"
      "  mlsys simulate compare configs/simulate/philly_gavel_policies.yaml\n"
      "  mlsys simulate compare configs/simulate/openb_placers.yaml\n"
      "  mlsys simulate fill configs/simulate/openb_fill.yaml        # FGD paper: stranded GPUs as the cluster fills\n"
      "  mlsys simulate stats --set trace.path=../shared/data/traces/tiresias/60_job.csv\n"
      "  mlsys simulate generate --set tracegen.jobs=100000\n"
      "  mlsys simulate helios                           # Helios compatibility mode on the shared reference inputs",
      {&run_section(), &sim_section(), &workload::trace_section(), &workload::tracegen_section(), &fill_section()},
      command_modes("simulate"),
      "sim.mode",
      {{"lenient", "trace.lenient", false, "Skip bad trace rows (counted) instead of failing"},
       {"policy", "sim.policy", true, "Scheduling policy"},
       {"placer", "sim.placer", true, "Placement policy"},
       {"trace", "trace.path", true, "Trace file or folder"}},
      {}};
  return spec;
}

}  // namespace mlsys::sim
