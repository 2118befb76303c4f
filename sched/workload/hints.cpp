#include "sched/workload/hints.hpp"

#include "core/io/csv.hpp"
#include "core/util/error.hpp"
#include "core/util/number_parse.hpp"
#include "core/util/strings.hpp"

namespace mlsys::workload {

Table hints_table(const std::vector<Hint>& hints) {
  Table t({"job_id", "predicted_duration_s", "uncertainty_s", "failure_action"});
  for (const auto& h : hints) t.add_row({h.job_id, h.duration_s, h.uncertainty_s, std::string(to_string(h.action))});
  return t;
}

// The numbers of a hints file (core/util/number_parse.hpp): seconds, finite, not negative, at most
// kMaxFileSeconds.
constexpr RealRule kPredicted{"predicted_duration_s", 0, kMaxFileSeconds};
constexpr RealRule kUncertainty{"uncertainty_s", 0, kMaxFileSeconds};

std::unordered_map<std::string, Hint> read_hints(const std::string& path) {
  CsvReader in(path);
  in.read_header();
  const int id = in.require("job_id"), duration = in.require("predicted_duration_s");
  const int uncertainty = in.column("uncertainty_s"), action = in.column("failure_action");
  std::unordered_map<std::string, Hint> hints;
  while (in.next()) {
    if (!in.complete()) throw InputError(in.where() + ": unclosed quote");
    auto at = [&](int col) { return in.where(col + 1); };
    Hint h;
    h.job_id = std::string(trim(in.field(static_cast<size_t>(id))));
    h.duration_s = parse_field(in.field(static_cast<size_t>(duration)), kPredicted, at(duration));
    if (uncertainty >= 0) {
      std::string_view u = trim(in.field(static_cast<size_t>(uncertainty)));
      // Table writes an unknown uncertainty (NaN) as "null".
      if (!u.empty() && u != "null") h.uncertainty_s = parse_field(u, kUncertainty, at(uncertainty));
    }
    if (action >= 0) {
      std::string_view a = trim(in.field(static_cast<size_t>(action)));
      try {
        h.action = parse_failure_action(a);
      } catch (const ConfigError&) {
        throw InputError(at(action) + ": failure_action = '" + std::string(a) + "'; valid: " + failure_action_names());
      }
    }
    hints[h.job_id] = h;
  }
  return hints;
}

}  // namespace mlsys::workload
