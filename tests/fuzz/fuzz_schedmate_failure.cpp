// Fuzz target: the Failure Handler's rules (embedded analyzer) and diagnose_log over arbitrary log
// lines. A diagnosis always has a category and the action action_for() gives it; an evidence line
// is one of the log's lines.
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "sched/schedmate/analyzer/analyzer.hpp"
#include "sched/schedmate/failure/failure_types.hpp"
#include "sched/schedmate/io/bounded_input.hpp"
#include "tests/fuzz/fuzz_target.hpp"

MLSYS_FUZZ_TARGET(schedmate_failure) {
  using namespace mlsys::schedmate;
  static auto analyzer = analyzer_registry().create("embedded", AnalyzerOptions{});
  const std::string text = valid_utf8(std::string_view(reinterpret_cast<const char*>(data), size));
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  const Diagnosis d = diagnose_log(*analyzer, lines, "fuzz");
  if (d.action != action_for(d.category)) std::abort();
  if (d.evidence_line < 0 || d.evidence_line > static_cast<int64_t>(lines.size())) std::abort();
  return 0;
}
