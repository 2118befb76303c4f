#include "sim/helios/helios_input.hpp"

#include <algorithm>
#include <filesystem>
#include <unordered_map>

#include "core/io/csv.hpp"
#include "core/util/error.hpp"
#include "sched/workload/traces/fields.hpp"

namespace mlsys::sim::helios {
namespace {

// The Helios inputs through the project's CSV reader; any bad field stops the run with file:line:col.
struct Csv {
  CsvReader in;
  explicit Csv(const std::string& path) : in(path) { in.read_header(); }
  int column(const std::string& name, bool required = true) const { return required ? in.require(name) : in.column(name); }
  bool next() {
    if (!in.next()) return false;
    if (!in.complete()) fail(0, "unclosed quote");
    return true;
  }
  // The field as a view into the current row (valid until next()); a short row is an error.
  std::string_view view(int col) {
    if (col >= static_cast<int>(in.fields().size())) fail(col, "missing field");
    return in.field(static_cast<size_t>(col));
  }
  std::string text(int col) { return std::string(view(col)); }
  int64_t integer(int col) {
    auto v = workload::parse_int(view(col));
    if (!v) fail(col, "not a whole number");
    return *v;
  }
  [[noreturn]] void fail(int col, const std::string& why) {
    std::string name = col < static_cast<int>(in.names().size()) ? in.names()[col] : "?";
    throw InputError(in.where(col + 1) + ": field '" + name + "' = '" + std::string(in.field(static_cast<size_t>(col))) +
                     "': " + why);
  }
};

}  // namespace

std::vector<Job> load_cluster_log(const std::string& path, const std::string& origin) {
  Csv csv(path);
  const int c_user = csv.column("user"), c_vc = csv.column("vc"), c_name = csv.column("jobname"),
            c_gpu = csv.column("gpu_num"), c_state = csv.column("state", false),
            c_submit = csv.column("submit_time"), c_dur = csv.column("duration");
  std::vector<Job> jobs;
  bool datetime = false;
  std::error_code size_error;
  const auto file_bytes = std::filesystem::file_size(path, size_error);
  while (csv.next()) {
    if (jobs.empty() && !size_error) {
      // Room for the rows the file holds if they are as long as the first one: growing a vector of
      // 100k jobs step by step copies and faults in twice the memory (a gzip file under-estimates,
      // which only means more growth).
      size_t row_bytes = csv.in.fields().size();
      for (auto f : csv.in.fields()) row_bytes += f.size();
      jobs.reserve(static_cast<size_t>(file_bytes) / row_bytes + 16);
    }
    Job j;
    j.user = csv.text(c_user);
    j.vc = csv.text(c_vc);
    j.name = csv.text(c_name);
    j.state = c_state >= 0 ? csv.text(c_state) : "Pass";
    j.gpus = static_cast<int>(csv.integer(c_gpu));
    // A datetime and a whole number exclude each other (a number has no '-' after its first
    // character), so the order of the two checks changes nothing; datetimes are the common case.
    const std::string_view s = csv.view(c_submit);
    if (auto d = workload::parse_datetime(s)) {
      j.submit = *d;
      datetime = true;
    } else if (auto v = workload::parse_int(s)) {
      j.submit = *v;
    } else {
      csv.fail(c_submit, "not a time (whole seconds or YYYY-MM-DD HH:MM:SS)");
    }
    auto d = workload::parse_double(csv.view(c_dur));
    if (!d) csv.fail(c_dur, "not a number");
    if (*d != static_cast<double>(static_cast<int64_t>(*d)) || *d < 1)
      csv.fail(c_dur, "the Helios simulator needs whole durations >= 1 s (it would loop forever)");
    j.duration = static_cast<int64_t>(*d);
    jobs.push_back(std::move(j));
  }
  if (jobs.empty()) return jobs;
  int64_t base = 0;
  if (!origin.empty()) {
    auto o = workload::parse_datetime(origin);
    if (!o) throw ConfigError("helios origin '" + origin + "' is not YYYY-MM-DD HH:MM:SS");
    base = *o;
  } else if (datetime) {
    base = jobs[0].submit;
    for (const auto& j : jobs) base = std::min(base, j.submit);
  }
  for (auto& j : jobs) j.submit -= base;
  return jobs;
}

std::map<std::string, VcNodes> load_vc_config(const std::string& path, int default_gpus) {
  Csv csv(path);
  const int c_vc = csv.column("vc"), c_nodes = csv.column("node num"), c_gpn = csv.column("gpus_per_node", false);
  std::map<std::string, VcNodes> out;
  while (csv.next()) {
    VcNodes v;
    v.nodes = static_cast<int>(csv.integer(c_nodes));
    v.gpus_per_node = c_gpn >= 0 ? static_cast<int>(csv.integer(c_gpn)) : default_gpus;
    if (v.nodes < 0 || v.gpus_per_node <= 0) csv.fail(c_nodes, "must be positive");
    out[csv.text(c_vc)] = v;
  }
  return out;
}

void load_priorities(const std::string& path, std::vector<Job>& jobs) {
  Csv csv(path);
  const int c_name = csv.column("jobname"), c_p = csv.column("priority");
  std::unordered_map<std::string, int64_t> p;
  while (csv.next()) p[csv.text(c_name)] = csv.integer(c_p);
  for (auto& j : jobs) {
    auto it = p.find(j.name);
    if (it != p.end()) {
      j.priority_p = it->second;
      j.has_priority_p = true;
    }
  }
}

}  // namespace mlsys::sim::helios
