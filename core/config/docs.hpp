#pragma once
// Text generated from section declarations: the key table of `mlsys <command> --help` and the
// Markdown of docs/CONFIG.md.
#include <string>
#include <vector>

#include "core/config/schema.hpp"

namespace mlsys::config {

// Default value of a field as YAML text (one line).
std::string default_text(const SectionBase& s, const FieldBase& f);
// Plain-text table: key, type, default, allowed, description.
std::string help_text(const std::vector<const SectionBase*>& sections);
// Markdown section per config section (heading + table).
std::string markdown(const std::vector<const SectionBase*>& sections);

}  // namespace mlsys::config
