#pragma once
// The CSV reader of the project: RFC 4180 fields (quotes, "" escapes, commas inside quotes) over the
// streaming LineReader (plain or gzip, constant memory), header names, column lookup and line
// numbers for errors. Writing goes through core/runtime/table.hpp (Table, csv_field), which quotes
// what this reader unquotes.
//
//   CsvReader in(path);
//   in.read_header();                        // first non-blank row: column names
//   const int id = in.require("job_id");     // InputError naming the file when missing
//   while (in.next()) use(in.fields()[id]);  // views, valid until the next call
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/line_reader.hpp"

namespace mlsys {

// Splits a CSV record. Quoted fields that contain escaped quotes are unescaped into `scratch`,
// which must outlive the views. Returns false when a quote is not closed.
bool split_csv(std::string_view line, std::vector<std::string_view>& out, std::string& scratch);
// Splits on a single separator character, no quoting (tab-separated files).
void split_plain(std::string_view line, char sep, std::vector<std::string_view>& out);

class CsvReader {
 public:
  // sep ',' parses RFC 4180 quoting; any other separator splits plainly. Throws Error when the
  // file cannot be opened.
  explicit CsvReader(const std::filesystem::path& path, char sep = ',');

  // Reads the first non-blank row as the column names: trimmed, a UTF-8 byte-order mark dropped,
  // lower-cased with `lower` (column() then matches any case). Throws InputError when the file is
  // empty or the header has an unclosed quote.
  const std::vector<std::string>& read_header(bool lower = false);
  const std::vector<std::string>& names() const { return names_; }
  // For headerless files: the documented column names (used in error messages).
  void set_names(std::vector<std::string> names) { names_ = std::move(names); }
  // Index of a header column, or -1.
  int column(std::string_view name) const;
  // Like column() but a missing column is an InputError at the header line; `hint` is appended.
  int require(std::string_view name, std::string_view hint = "") const;

  // Advances to the next row that is not blank; false at the end. A row with an unclosed quote is
  // returned too, with complete() false, so the caller decides whether it is fatal.
  bool next();
  bool complete() const { return complete_; }
  const std::vector<std::string_view>& fields() const { return fields_; }
  // The field `col` of the current row, or "" when the row is shorter.
  std::string_view field(size_t col) const { return col < fields_.size() ? fields_[col] : std::string_view(); }
  // 1-based line number of the current row (of the header after read_header()).
  int64_t line() const { return in_.line_number(); }
  int64_t header_line() const { return header_line_; }
  const std::string& path() const { return in_.path(); }
  // "path:line" or "path:line:column" (1-based column) of the current row, for error messages.
  std::string where(int column = 0) const;

 private:
  bool split(std::string_view line);
  LineReader in_;
  char sep_;
  bool lower_ = false;
  bool complete_ = true;
  int64_t header_line_ = 0;
  std::vector<std::string> names_;
  std::vector<std::string_view> fields_;
  std::string scratch_;
};

}  // namespace mlsys
