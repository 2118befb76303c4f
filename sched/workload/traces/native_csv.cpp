#include "sched/workload/traces/native_csv.hpp"

#include <charconv>

#include "core/io/csv.hpp"

namespace mlsys::workload {

const std::vector<std::string>& native_csv_columns() {
  static const std::vector<std::string> cols{"id",       "submit_time", "duration", "num_gpus", "gpu_milli",
                                             "cpu_milli", "memory_mib", "user",    "vc",       "name",
                                             "state",    "gpu_type",    "total_steps", "command"};
  return cols;
}

void append_native_header(std::string& out) {
  const auto& c = native_csv_columns();
  for (size_t i = 0; i < c.size(); ++i) {
    if (i) out += ',';
    out += c[i];
  }
  out += '\n';
}

namespace {

// Line breaks inside text become spaces (a row stays one line); such a field stays quoted.
void text(std::string& out, const std::string& s) {
  if (s.find_first_of("\n\r") == std::string::npos) return append_csv_field(out, s);
  std::string flat = s;
  for (char& c : flat)
    if (c == '\n' || c == '\r') c = ' ';
  append_csv_field(out, flat, /*force_quote=*/true);
}

template <class T>
void number(std::string& out, T v) {
  char buf[32];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);  // shortest round-trip form
  out.append(buf, static_cast<size_t>(p - buf));
}

}  // namespace

void append_native_row(std::string& out, const JobSpec& j) {
  text(out, j.id);
  out += ',';
  number(out, j.submit_time);
  out += ',';
  number(out, j.duration);
  out += ',';
  number(out, j.num_gpus);
  out += ',';
  number(out, j.gpu_milli);
  out += ',';
  number(out, j.cpu_milli);
  out += ',';
  number(out, j.memory_mib);
  out += ',';
  text(out, j.user);
  out += ',';
  text(out, j.vc);
  out += ',';
  text(out, j.name);
  out += ',';
  out += to_string(j.state);
  out += ',';
  text(out, j.gpu_type);
  out += ',';
  number(out, j.total_steps);
  out += ',';
  text(out, j.command);
  out += '\n';
}

void write_native_csv(const std::string& path, const std::vector<JobSpec>& jobs) {
  CsvFileWriter out(path);
  std::string rows;
  append_native_header(rows);
  for (size_t i = 0; i < jobs.size(); ++i) {
    append_native_row(rows, jobs[i]);
    if (rows.size() >= (1 << 16)) {
      out.append_lines(rows);
      rows.clear();
    }
  }
  out.append_lines(rows);
  out.commit();
}

}  // namespace mlsys::workload
