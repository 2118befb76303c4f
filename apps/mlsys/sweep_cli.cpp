#include "apps/mlsys/sweep_cli.hpp"

#include <boost/program_options.hpp>

#include <filesystem>
#include <sstream>

#include "apps/mlsys/cli.hpp"
#include "apps/mlsys/commands.hpp"
#include "core/comm/comm_options.hpp"
#include "core/config/docs.hpp"
#include "core/config/resolve.hpp"
#include "core/log/log.hpp"
#include "core/runtime/run_options.hpp"
#include "core/sweep/sweep.hpp"
#include "core/process/system.hpp"
#include "core/process/thread_policy.hpp"
#include "core/util/error.hpp"
#include "core/io/hash.hpp"
#include "core/util/strings.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace mlsys::app {

namespace {

const std::vector<std::string> kModes = {"run", "list", "merge"};

}  // namespace

const std::vector<std::string>& sweep_modes() { return kModes; }

std::vector<const config::SectionBase*> sweep_sections() { return {&sweep_section(), &run_section(), &comm_section()}; }

po::options_description sweep_options() {
  po::options_description desc("Options");
  desc.add_options()("help,h", "Show this help")
      ("set", po::value<std::vector<std::string>>()->composing(), "Override a sweep file key: --set sweep.workers=4")
      ("out", po::value<std::string>(), "Sweep folder (default results/sweep/<sweep file name>)")
      ("overwrite", "Run every configuration again, also those already complete");
  add_verbosity_options(desc);
  return desc;
}

namespace {

// Every configuration resolves for its command before anything runs: a typo in the grid is one
// error now, not N failed runs later. The resolved config is each configuration's fingerprint (with
// its input files' hashes, core/sweep/sweep_plan_record.hpp), so a re-run sees what changed.
void resolve_points(SweepPlan& plan) {
  const CommandSpec* cmd = find_command(plan.options.command);
  if (!cmd) {
    std::vector<std::string> names;
    for (const auto* c : commands()) names.push_back(c->name);
    throw ConfigError("sweep.command = '" + plan.options.command + "': not a command; one of: " + join(names, ", "));
  }
  if (!plan.options.mode.empty()) {
    auto modes = cmd->mode_names();
    if (std::find(modes.begin(), modes.end(), plan.options.mode) == modes.end())
      throw ConfigError("sweep.mode = '" + plan.options.mode + "': `mlsys " + cmd->name + "` has the modes " + join(modes, ", "));
  }
  for (auto& p : plan.points) {
    std::vector<std::string> files;
    if (!p.config_path.empty()) files.push_back(p.config_path);
    std::vector<std::string> sets = plan.sets_of(p);
    if (!plan.options.mode.empty()) sets.insert(sets.begin(), cmd->mode_key + "=" + plan.options.mode);
    if (p.has_seed) sets.push_back("run.seed=" + std::to_string(p.seed));  // the child's --seed
    try {
      p.config_hash = content_hash(sweep_config_text(config::resolve(cmd->sections, files, sets)));
    } catch (const ConfigError& e) {
      throw ConfigError("sweep configuration " + p.folder + " (" + p.config + "): " + e.what());
    }
  }
}

}  // namespace

std::string sweep_help() {
  std::ostringstream ss;
  ss << "usage: mlsys sweep [run|list|merge] SWEEP.yaml [--out DIR] [--set sweep.key=value ...] [--overwrite] [-v|-q ...]\n\n"
        "Runs one command over configs x grid x seeds, each configuration in DIR/runs/<index>, and merges\n"
        "the results into DIR/sweep.csv (one row per configuration).\n\n"
        "Modes:\n"
        "  run     (default) run the configurations: on local threads (sweep.workers at a time); under\n"
        "          `mpirun -np N` configuration i runs on rank i mod N and rank 0 gathers the results; with\n"
        "          SLURM_ARRAY_TASK_ID=i only configuration i runs (then use merge)\n"
        "  list    print the configurations and the --array range for SLURM\n"
        "  merge   join the run folders into DIR/sweep.csv (after a SLURM array)\n\n"
        "A configuration whose folder holds a complete run of the same resolved config and input files is\n"
        "kept, so a re-run resumes a sweep; a configuration whose config or inputs changed runs again (the\n"
        "console says how many), and merge leaves runs of an earlier plan out of the table (status stale).\n\n"
     << sweep_options() << "\nSweep file keys:\n"
     << config::help_text(sweep_sections());
  return ss.str();
}

int run_sweep_command(const std::vector<std::string>& args) {
  ParsedArgs parsed = parse_args(sweep_options(), args, "mlsys sweep --help");
  const po::variables_map& vm = parsed.options;
  if (vm.count("help")) {
    std::printf("%s", sweep_help().c_str());
    return 0;
  }
  std::vector<std::string> positional = parsed.positional;
  std::string mode = "run";
  // A mode word is a word before it is a path (a folder named `list` does not hide the mode).
  if (!positional.empty() && std::find(kModes.begin(), kModes.end(), positional[0]) != kModes.end()) {
    mode = positional[0];
    positional.erase(positional.begin());
  }
  if (positional.size() != 1)
    throw UsageError("give one sweep file: mlsys sweep [run|list|merge] SWEEP.yaml (see `mlsys sweep --help`)");
  const std::string file = positional[0];
  if (!fs::exists(file)) throw UsageError("sweep file not found: " + file);
  std::vector<std::string> sets;
  if (vm.count("set")) sets = vm["set"].as<std::vector<std::string>>();
  if (vm.count("out")) sets.push_back("run.out_dir=" + vm["out"].as<std::string>());
  auto cfg = resolve_invocation(sweep_sections(), {file}, sets, verbosity_of(parsed));
  const RunOptions& ro = cfg.get(run_section());
  log::set_level(log::parse_level(ro.log_level));
  if (launcher_size() > 1) log::set_rank(launcher_rank());
  SweepPlan plan = make_sweep_plan(cfg.get(sweep_section()), fs::absolute(file).parent_path());
  resolve_points(plan);
  SweepRun how;
  how.mode = mode;
  how.out = ro.out_dir.empty() ? fs::path("results/sweep") / fs::path(file).stem() : fs::path(ro.out_dir);
  how.out = fs::absolute(how.out).lexically_normal();
  how.overwrite = vm.count("overwrite") > 0 || ro.overwrite;
  how.binary = self_executable();
  how.comm_timeout_s = cfg.get(comm_section()).timeout_s;
  how.threads = choose_threads(ro.threads).threads;
  return run_sweep(plan, cfg.to_yaml_string(), how);
}

}  // namespace mlsys::app
