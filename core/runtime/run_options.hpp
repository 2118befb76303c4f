#pragma once
#include <cstdint>
#include <string>

#include "core/config/schema.hpp"

namespace mlsys {

// The `run:` section every command shares.
struct RunOptions {
  uint64_t seed = 1;
  std::string out_dir;  // "" -> results/<command>/<timestamp>
  int threads = 0;      // 0 -> OMP_NUM_THREADS, SLURM_CPUS_PER_TASK or the affinity mask (thread_policy.hpp)
  std::string log_level = "info";
  bool overwrite = false;
  std::string progress = "auto";
  std::string figure_size = "column";  // the SVG figures' preset (core/util/svg_chart.hpp)
};

const config::Section<RunOptions>& run_section();

}  // namespace mlsys
