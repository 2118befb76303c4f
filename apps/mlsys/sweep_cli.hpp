#pragma once
#include <string>
#include <vector>

namespace mlsys::app {

// `mlsys sweep [run|list|merge] SWEEP.yaml [--out DIR] [--set sweep.key=value ...] [--overwrite]`
// (core/runtime/sweep.hpp). Returns the exit code; throws UsageError/ConfigError on bad input.
int run_sweep_command(const std::vector<std::string>& args);
std::string sweep_help();

}  // namespace mlsys::app
