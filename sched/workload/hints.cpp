#include "sched/workload/hints.hpp"

#include "core/io/csv.hpp"
#include "core/util/error.hpp"
#include "core/util/strings.hpp"
#include "sched/workload/traces/fields.hpp"

namespace mlsys::workload {

Table hints_table(const std::vector<Hint>& hints) {
  Table t({"job_id", "predicted_duration_s", "uncertainty_s", "failure_action"});
  for (const auto& h : hints) t.add_row({h.job_id, h.duration_s, h.uncertainty_s, std::string(to_string(h.action))});
  return t;
}

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
    std::string_view d = in.field(static_cast<size_t>(duration));
    auto dv = parse_double(d);
    if (!dv) throw InputError(at(duration) + ": predicted_duration_s = '" + std::string(d) + "' is not a number");
    if (*dv < 0) throw InputError(at(duration) + ": predicted_duration_s must be >= 0");
    h.duration_s = *dv;
    if (uncertainty >= 0) {
      std::string_view u = trim(in.field(static_cast<size_t>(uncertainty)));
      auto uv = parse_double(u);
      // Table writes an unknown uncertainty (NaN) as "null".
      if (!u.empty() && u != "null" && (!uv || *uv < 0))
        throw InputError(at(uncertainty) + ": uncertainty_s = '" + std::string(u) + "' is not a number >= 0");
      if (uv) h.uncertainty_s = *uv;
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
