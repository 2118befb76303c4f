// External hints (SchedMate writes them): per-job predicted duration and failure action from a
// CSV file `job_id,predicted_duration_s,uncertainty_s,failure_action`. Jobs missing from the file
// fall back to the Helios estimator and are counted.
#include <sstream>
#include <unordered_map>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "core/util/strings.hpp"
#include "sim/engine/failures.hpp"
#include "sim/estimators/estimator.hpp"

namespace mlsys::sim {

std::unordered_map<std::string, Hint> read_hints(const std::string& path) {
  std::istringstream in(read_file(path));
  std::string line;
  int64_t line_no = 1;
  if (!std::getline(in, line) || trim(line).substr(0, 6) != "job_id")
    throw InputError(path + ":1: expected header job_id,predicted_duration_s,uncertainty_s,failure_action");
  std::unordered_map<std::string, Hint> hints;
  while (std::getline(in, line)) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (trim(line).empty()) continue;
    auto f = split(line, ',');
    auto where = [&](int col) { return path + ":" + std::to_string(line_no) + ":" + std::to_string(col); };
    if (f.size() < 2) throw InputError(where(1) + ": expected at least job_id,predicted_duration_s");
    double d = 0;
    try {
      size_t used = 0;
      d = std::stod(f[1], &used);
      if (used != f[1].size()) throw std::invalid_argument("x");
    } catch (...) {
      throw InputError(where(2) + ": predicted_duration_s = '" + f[1] + "' is not a number");
    }
    if (!(d >= 0)) throw InputError(where(2) + ": predicted_duration_s must be >= 0");
    std::string action = f.size() > 3 ? std::string(trim(f[3])) : "";
    RetryAction parsed{};
    try {
      parsed = parse_retry_action(action);
    } catch (const ConfigError&) {
      throw InputError(where(4) + ": failure_action = '" + action +
                       "'; valid: (empty), resubmit, resubmit_exclude_node, resubmit_more_memory, do_not_retry");
    }
    hints[std::string(trim(f[0]))] = Hint{d, parsed};
  }
  return hints;
}

namespace {

class Hints final : public Estimator {
 public:
  Estimates estimate(const std::vector<JobSpec>& jobs, const EstimatorOptions& o) override {
    if (o.hints_file.empty())
      throw ConfigError("estimator 'hints' needs sim.hints_file (the CSV SchedMate writes)");
    auto hints = read_hints(o.hints_file);
    Estimates fallback;
    bool have_fallback = false;
    Estimates e;
    e.value.assign(jobs.size(), 0);
    for (size_t i = 0; i < jobs.size(); ++i) {
      auto it = hints.find(jobs[i].id);
      if (it != hints.end()) {
        e.value[i] = it->second.duration;
        ++e.sources["hints"];
        continue;
      }
      if (!have_fallback) {
        fallback = helios_estimates(jobs, o);
        have_fallback = true;
      }
      e.value[i] = fallback.value[i];
      ++e.fallbacks;
      ++e.sources["helios fallback"];
    }
    return e;
  }
};

const bool registered = estimator_registry().add(
    "hints", "Per-job predictions from a CSV (SchedMate's output); missing jobs use the helios estimator",
    [] { return std::make_unique<Hints>(); });

}  // namespace
}  // namespace mlsys::sim
