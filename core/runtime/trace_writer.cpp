#include "core/runtime/trace_writer.hpp"

#include <fmt/format.h>

#include "core/util/fs.hpp"
#include "core/util/json.hpp"

namespace mlsys {

void TraceWriter::name_track(int pid, int tid, const std::string& process_name, const std::string& thread_name) {
  std::lock_guard<std::mutex> lk(mu_);
  events_.push_back(fmt::format(R"({{"ph":"M","name":"process_name","pid":{},"tid":{},"args":{{"name":"{}"}}}})", pid,
                                tid, json_escape(process_name)));
  events_.push_back(fmt::format(R"({{"ph":"M","name":"thread_name","pid":{},"tid":{},"args":{{"name":"{}"}}}})", pid,
                                tid, json_escape(thread_name)));
}

void TraceWriter::span(int pid, int tid, const std::string& name, double start_us, double dur_us,
                       const std::string& category) {
  std::lock_guard<std::mutex> lk(mu_);
  events_.push_back(fmt::format(R"({{"ph":"X","name":"{}","cat":"{}","pid":{},"tid":{},"ts":{},"dur":{}}})",
                                json_escape(name), json_escape(category), pid, tid, format_number(start_us),
                                format_number(dur_us < 0 ? 0 : dur_us)));
}

void TraceWriter::instant(int pid, int tid, const std::string& name, double ts_us) {
  std::lock_guard<std::mutex> lk(mu_);
  events_.push_back(fmt::format(R"({{"ph":"i","s":"t","name":"{}","pid":{},"tid":{},"ts":{}}})", json_escape(name),
                                pid, tid, format_number(ts_us)));
}

void TraceWriter::counter(int pid, const std::string& name, double ts_us, double value) {
  std::lock_guard<std::mutex> lk(mu_);
  events_.push_back(fmt::format(R"({{"ph":"C","name":"{}","pid":{},"tid":0,"ts":{},"args":{{"value":{}}}}})",
                                json_escape(name), pid, format_number(ts_us), format_number(value)));
}

size_t TraceWriter::size() const {
  std::lock_guard<std::mutex> lk(mu_);
  return events_.size();
}

std::string TraceWriter::to_json() const {
  std::lock_guard<std::mutex> lk(mu_);
  std::string out = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n";
  for (size_t i = 0; i < events_.size(); ++i) {
    out += events_[i];
    out += i + 1 < events_.size() ? ",\n" : "\n";
  }
  out += "]}\n";
  return out;
}

void TraceWriter::write(const std::string& path) const { write_file_atomic(path, to_json()); }

}  // namespace mlsys
