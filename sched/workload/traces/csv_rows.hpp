#pragma once
// Row iteration for delimited trace files: the project's CsvReader (core/io/csv.hpp) with the
// trace read's bookkeeping: rows counted in the summary, a row with an unclosed quote or (with a
// header) fewer fields than the header reported as a bad row (strict: error, lenient: skipped),
// and a RowParser per row that names line and column.
#include <string>
#include <string_view>
#include <vector>

#include "core/io/csv.hpp"
#include "sched/workload/traces/trace_reader.hpp"

namespace mlsys::workload {

class CsvRows {
 public:
  // sep ',' parses RFC 4180 quoting; any other separator splits plainly. With `header`, the
  // first non-empty line names the columns (matched case-insensitively).
  CsvRows(ReadContext& ctx, char sep, bool header);

  const std::vector<std::string>& names() const { return in_.names(); }
  // For headerless formats: the documented column names (used in error messages).
  void set_names(std::vector<std::string> names) { in_.set_names(std::move(names)); }
  // Index of a header column (case-insensitive), or -1.
  int column(std::string_view name) const { return in_.column(name); }
  // Like column() but a missing column is a file error (InputError at the header line).
  int require(std::string_view name) const { return in_.require(name, "; is trace.format right?"); }

  // Advances to the next non-empty data row; false at the end or once the caller stopped.
  bool next();
  const std::vector<std::string_view>& fields() const { return in_.fields(); }
  int64_t line() const { return in_.line(); }
  RowParser parser() { return RowParser(ctx_, in_.line(), in_.fields(), in_.names()); }

 private:
  ReadContext& ctx_;
  CsvReader in_;
  bool header_;
};

}  // namespace mlsys::workload
