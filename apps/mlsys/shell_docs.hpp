#pragma once
// Shell completion scripts and the man page, generated from the command table, so they list what
// the binary accepts and cannot drift from it (installed by cmake/mlsys_install.cmake).
#include <string>
#include <vector>

#include "apps/mlsys/command_table.hpp"

namespace mlsys::app {

std::string bash_completion(const std::vector<CliEntry>& entries);
std::string zsh_completion(const std::vector<CliEntry>& entries);
std::string man_page(const std::vector<CliEntry>& entries);

}  // namespace mlsys::app
