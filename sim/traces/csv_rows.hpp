#pragma once
// Row iteration for delimited trace files: header handling, column lookup by name, and a
// RowParser per row that reports bad fields with their line and column.
#include <string>
#include <string_view>
#include <vector>

#include "sim/traces/line_reader.hpp"
#include "sim/traces/trace_reader.hpp"

namespace mlsys::sim {

class CsvRows {
 public:
  // sep ',' parses RFC 4180 quoting; any other separator splits plainly. With `header`, the
  // first non-empty line names the columns.
  CsvRows(ReadContext& ctx, char sep, bool header);

  const std::vector<std::string>& names() const { return names_; }
  // For headerless formats: the documented column names (used in error messages).
  void set_names(std::vector<std::string> names) { names_ = std::move(names); }
  // Index of a header column (case-insensitive), or -1.
  int column(std::string_view name) const;
  // Like column() but a missing column is a file error (InputError at the header line).
  int require(std::string_view name) const;

  // Advances to the next non-empty data row; false at the end or once the caller stopped.
  bool next();
  const std::vector<std::string_view>& fields() const { return fields_; }
  int64_t line() const { return in_.line_number(); }
  RowParser parser() { return RowParser(ctx_, in_.line_number(), fields_, names_); }

 private:
  bool split(std::string_view line);
  ReadContext& ctx_;
  LineReader in_;
  char sep_;
  int64_t header_line_ = 0;
  std::vector<std::string> names_;
  std::vector<std::string_view> fields_;
  std::string scratch_;
};

}  // namespace mlsys::sim
