#include "sched/workload/traces/trace_summary.hpp"

namespace mlsys::workload {

Json TraceSummary::to_json() const {
  Json j = Json::object();
  Json f = Json::array();
  for (const auto& x : files) f.push_back(x);
  j["files"] = f;
  Json fm = Json::array();
  for (const auto& x : formats) fm.push_back(x);
  j["formats"] = fm;
  j["rows_read"] = rows_read;
  j["jobs_kept"] = jobs_kept;
  j["filtered_out"] = filtered_out;
  j["bad_rows"] = bad_rows;
  Json reasons = Json::object();
  for (const auto& [k, v] : bad_reasons) reasons[k] = v;
  j["bad_reasons"] = reasons;
  Json ex = Json::array();
  for (const auto& x : bad_examples) ex.push_back(x);
  j["bad_examples"] = ex;
  Json sk = Json::object();
  for (const auto& [k, v] : skipped) sk[k] = v;
  j["skipped"] = sk;
  j["stopped_early"] = stopped_early;
  return j;
}

std::string TraceSummary::to_line() const {
  std::string s = "read " + std::to_string(rows_read) + " rows from " + std::to_string(files.size()) +
                  " file(s), kept " + std::to_string(jobs_kept) + " jobs";
  if (filtered_out) s += ", filtered out " + std::to_string(filtered_out);
  int64_t skipped_total = 0;
  for (const auto& [k, v] : skipped) skipped_total += v;
  if (skipped_total) s += ", skipped " + std::to_string(skipped_total) + " (not jobs)";
  if (bad_rows) {
    s += ", skipped " + std::to_string(bad_rows) + " bad rows (";
    bool first = true;
    for (const auto& [k, v] : bad_reasons) {
      s += (first ? "" : "; ") + k + ": " + std::to_string(v);
      first = false;
    }
    s += ")";
  }
  if (stopped_early) s += ", stopped at max_jobs";
  return s;
}

}  // namespace mlsys::workload
