#include "core/runtime/run_options.hpp"

#include "core/util/svg_chart.hpp"

namespace mlsys {

const config::Section<RunOptions>& run_section() {
  static const config::Section<RunOptions> s("run", "Settings every command shares", [](auto& s) {
    s.field("seed", &RunOptions::seed, "Random seed, any unsigned 64-bit integer; the same seed and config reproduce a run (--seed)")
        .min(0);
    s.field("out_dir", &RunOptions::out_dir, "Output folder; empty means results/<command>/<timestamp> (--out)");
    s.field("threads", &RunOptions::threads, "Threads for kernels (OpenMP, OpenBLAS) and parallel tasks; 0: OMP_NUM_THREADS, else "
                "SLURM_CPUS_PER_TASK, else every CPU of the affinity mask, which bounds any count").range(0, 1024);
    s.field("log_level", &RunOptions::log_level, "Console verbosity; each -v moves it one step towards debug, each -q one towards quiet")
        .choices({"debug", "info", "warn", "error", "quiet"});
    s.field("overwrite", &RunOptions::overwrite, "Allow writing into an output folder that already holds a run");
    s.field("progress", &RunOptions::progress, "Progress display: auto (bar on a terminal, lines otherwise), on, off")
        .choices({"auto", "on", "off"});
    s.field("figure_size", &RunOptions::figure_size, "Size of the SVG figures a run writes: column (3.3 in wide, 8 pt text), page "
                "(6.9 in, 9 pt) or screen (720 px, 12 px text)").choices([] {
      std::vector<std::string> names;
      for (const auto& [name, size] : figure_sizes()) names.push_back(name);
      return names;
    }());
  });
  return s;
}

}  // namespace mlsys
