#pragma once
// The rows of `mlsys coopt compare` (coopt.eval.methods): one table gives each method's config
// word, its help text, the label of its row in the printed table and what the compare mode runs
// for it, so the key's choices, --help, docs/CONFIG.md and dispatch cannot disagree.
#include <string>
#include <vector>

#include "dataopt/eval/student_runs.hpp"

namespace mlsys::dataopt {

// The student network a method trains (none: the probe reads raw pixels).
enum class StudentArch { none, mlp, cnn };
// The regression targets of a student with StudentObjective::targets.
enum class StudentTargets { none, aligned, unaligned, central };

struct ComparisonMethod {
  std::string name;         // the word in coopt.eval.methods
  std::string description;  // its help text (choices in --help and docs/CONFIG.md)
  std::string label;        // its row in the printed comparison
  StudentArch arch = StudentArch::mlp;
  StudentObjective objective = StudentObjective::targets;
  StudentTargets targets = StudentTargets::none;
  bool weighted = false;    // the participants' alignment weights scale the loss
  // Rows that train nothing report no training time.
  bool trains() const { return arch != StudentArch::none && objective != StudentObjective::none; }
};

// Every method, in the order of the default coopt.eval.methods.
const std::vector<ComparisonMethod>& comparison_methods();
// The method named `name`; std::out_of_range for a name not in the table (the config rejects
// those before a run starts).
const ComparisonMethod& comparison_method(const std::string& name);
std::vector<std::string> comparison_method_names();

}  // namespace mlsys::dataopt
