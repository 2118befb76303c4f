#pragma once
// Environment references in config values, so shipped configs can name data as
// `${MLSYS_DATA_DIR}/graphs/cora` and run from any folder:
//   ${VAR}            the variable's value; an unset variable is an error naming file:line:col
//   ${VAR:-default}   the value, or `default` (itself expanded) when VAR is unset or empty
//   $${               a literal "${"
// A value that starts with a variable holding a relative path (`MLSYS_DATA_DIR=../shared/data`)
// takes that path relative to the working folder, where the variable was set, not relative to
// the config file's folder as paths written in the file are.
// Expansion happens when a file or --set value is read, so config.yaml holds the expanded text.
#include <yaml-cpp/yaml.h>

#include <string>
#include <string_view>

namespace mlsys::config {

// `where` prefixes errors ("exp.yaml:3:9: sim.trace").
std::string expand_env(std::string_view text, const std::string& where);
// Every scalar at or below `node`, in place (marks are kept, so later errors still cite lines).
void expand_env_in(YAML::Node node, const std::string& file, const std::string& path);
// The inverse for writing resolved values back as YAML: "${" -> "$${".
std::string escape_env(std::string_view text);

}  // namespace mlsys::config
