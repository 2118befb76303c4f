#pragma once
// What a read did: rows seen, jobs kept, rows skipped (bad or deliberately) and why.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/util/json.hpp"

namespace mlsys::workload {

struct TraceSummary {
  std::vector<std::string> files;            // files read, in order
  std::vector<std::string> formats;          // reader used for each file
  int64_t rows_read = 0;                     // data rows seen in every file read (headers excluded)
  int64_t jobs_kept = 0;                     // passed every filter
  int64_t filtered_out = 0;                  // parsed fine but removed by a filter
  int64_t bad_rows = 0;                      // skipped because lenient (always 0 when strict)
  std::map<std::string, int64_t> bad_reasons;      // reason -> count
  std::vector<std::string> bad_examples;           // first few "file:line:col: ..." messages
  std::map<std::string, int64_t> skipped;          // deliberately skipped rows, reason -> count
  bool stopped_early = false;                      // max_jobs (or the sink) ended the read

  Json to_json() const;
  // One line for the console, e.g. "read 8152 rows, kept 8152 jobs, skipped 0 bad rows".
  std::string to_line() const;
};

}  // namespace mlsys::workload
