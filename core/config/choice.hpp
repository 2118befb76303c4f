#pragma once
// One allowed value of a string config key with the sentence a user reads in `--help` and
// docs/CONFIG.md. Registry entries and command modes carry one.
#include <string>

namespace mlsys::config {

struct Choice {
  std::string name;
  std::string description;
};

}  // namespace mlsys::config
