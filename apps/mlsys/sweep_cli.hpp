#pragma once
#include <boost/program_options.hpp>

#include <string>
#include <vector>

#include "core/config/schema.hpp"

namespace mlsys::app {

// `mlsys sweep [run|list|merge] SWEEP.yaml [--out DIR] [--set sweep.key=value ...] [--overwrite]`
// (core/sweep/sweep.hpp). Returns the exit code; throws UsageError/ConfigError on bad input.
int run_sweep_command(const std::vector<std::string>& args);
std::string sweep_help();
// For the command table (completion, man page): the sweep's modes, options and sections.
const std::vector<std::string>& sweep_modes();
boost::program_options::options_description sweep_options();
std::vector<const config::SectionBase*> sweep_sections();

}  // namespace mlsys::app
