#pragma once
// The CSV reader of the project: RFC 4180 fields (quotes, "" escapes, commas inside quotes) over the
// streaming LineReader (plain or gzip, constant memory), header names, column lookup and line
// numbers for errors. Small result tables are written through core/runtime/table.hpp (Table);
// large ones (a row per job) are streamed through CsvFileWriter below, which quotes what the
// reader unquotes.
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

#include "core/io/line_reader.hpp"

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

// Appends one field, quoted (RFC 4180: quotes doubled) when it holds a comma, quote, CR or LF, or
// when `force_quote`.
void append_csv_field(std::string& out, std::string_view s, bool force_quote = false);
// Appends a number as format_number (core/util/json.hpp) writes it: integral values below 1e15
// without a decimal point, others in their shortest exact form, non-finite ones as "null".
void append_csv_number(std::string& out, double v);
void append_csv_integer(std::string& out, int64_t v);

// Streams a CSV file of any size in constant memory: rows are built in a buffer that is written
// to a temporary file beside `path` in large blocks; commit() renames it over `path`, so readers
// never see half a file. Without commit() (an error, an interrupt) the temporary is removed.
//
//   CsvFileWriter w(dir / "jobs.csv");
//   w.header({"id", "jct_s"});
//   for (...) { w.field(id); w.number(jct); w.end_row(); }
//   w.commit();
class CsvFileWriter {
 public:
  explicit CsvFileWriter(std::filesystem::path path, size_t buffer_bytes = size_t{1} << 20);
  ~CsvFileWriter();
  CsvFileWriter(const CsvFileWriter&) = delete;
  CsvFileWriter& operator=(const CsvFileWriter&) = delete;

  void header(const std::vector<std::string>& names);
  void field(std::string_view s) {
    sep();
    append_csv_field(buf_, s);
  }
  void number(double v) {
    sep();
    append_csv_number(buf_, v);
  }
  void integer(int64_t v) {
    sep();
    append_csv_integer(buf_, v);
  }
  void end_row() {
    buf_ += '\n';
    first_ = true;
    ++rows_;
    if (buf_.size() >= limit_) flush();
  }
  // Text already formatted as whole CSV lines (ending in "\n").
  void append_lines(std::string_view lines) {
    buf_.append(lines);
    if (buf_.size() >= limit_) flush();
  }
  // Data rows written so far (end_row calls).
  int64_t rows() const { return rows_; }
  const std::filesystem::path& path() const { return path_; }
  // Writes what is buffered and renames the temporary file over `path`. Throws Error on a write
  // failure (disk full), naming the file.
  void commit();

 private:
  void sep() {
    if (!first_) buf_ += ',';
    first_ = false;
  }
  void flush();
  std::filesystem::path path_, tmp_;
  int fd_ = -1;
  std::string buf_;
  size_t limit_;
  bool first_ = true;
  int64_t rows_ = 0;
};

}  // namespace mlsys
