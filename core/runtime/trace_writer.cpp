#include "core/runtime/trace_writer.hpp"

#include <fmt/format.h>

#include <atomic>
#include <chrono>

#include "core/comm/communicator.hpp"
#include "core/util/fs.hpp"
#include "core/util/json.hpp"
#include "core/util/strings.hpp"

namespace mlsys {

double steady_clock_us() {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

namespace {
std::atomic<double>& origin() {
  static std::atomic<double> o{steady_clock_us()};
  return o;
}
const bool g_origin_at_start = (origin(), true);  // fix the default origin when the library loads
}  // namespace

double trace_origin_us() { return origin().load(); }
double trace_clock_us() { return steady_clock_us() - origin().load(); }

void align_trace_clock(comm::Communicator& c) {
  c.barrier();
  origin().store(steady_clock_us());
}

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

void TraceWriter::gather(comm::Communicator& c, int root) {
  std::string mine;
  {
    std::lock_guard<std::mutex> lk(mu_);
    for (const auto& e : events_) {
      mine += e;
      mine += '\n';  // events are single-line JSON objects
    }
  }
  std::vector<uint64_t> sizes = c.all_gather_value<uint64_t>(mine.size());
  if (c.rank() != root) {
    if (!mine.empty()) c.send(mine.data(), mine.size(), root, 7301);
    return;
  }
  for (int r = 0; r < c.size(); ++r) {
    if (r == root || sizes[static_cast<size_t>(r)] == 0) continue;
    std::string theirs(sizes[static_cast<size_t>(r)], '\0');
    c.recv(theirs.data(), theirs.size(), r, 7301);
    std::lock_guard<std::mutex> lk(mu_);
    for (auto& line : split(theirs, '\n'))
      if (!line.empty()) events_.push_back(std::move(line));
  }
}

}  // namespace mlsys
