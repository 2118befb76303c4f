#pragma once
// Tokens of a text graph file, line by line: the lines come from the project's line reader
// (core/io/line_reader.hpp: streaming through a fixed buffer, plain or gzip), blank lines are
// skipped, and every error names file:line.
#include <charconv>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/util/error.hpp"
#include "core/io/line_reader.hpp"

namespace mlsys::gnn {

class TokenReader {
 public:
  explicit TokenReader(const std::filesystem::path& path) : in_(path) {}

  // Advances to the next non-blank line; false at end of file.
  bool next() {
    while (in_.next(line_)) {
      cursor_ = 0;
      if (line_.find_first_not_of(" \t") != std::string_view::npos) return true;
    }
    return false;
  }
  // The next whitespace- or `sep`-separated token of the current line ("" at its end).
  std::string_view token(char sep = ' ') {
    while (cursor_ < line_.size() && (line_[cursor_] == ' ' || line_[cursor_] == '\t' || line_[cursor_] == sep)) ++cursor_;
    const size_t b = cursor_;
    while (cursor_ < line_.size() && line_[cursor_] != ' ' && line_[cursor_] != '\t' && line_[cursor_] != sep) ++cursor_;
    return line_.substr(b, cursor_ - b);
  }
  bool at_end() {
    while (cursor_ < line_.size() && (line_[cursor_] == ' ' || line_[cursor_] == '\t')) ++cursor_;
    return cursor_ >= line_.size();
  }
  int64_t integer(std::string_view what, char sep = ' ') {
    const std::string_view t = token(sep);
    int64_t v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size())
      fail("expected an integer " + std::string(what) + ", got '" + std::string(t) + "'");
    return v;
  }
  // A number, finite or not (callers that need finite values check).
  double number(std::string_view t, std::string_view what) {
    double v = 0;
    const auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size())
      fail("expected a number " + std::string(what) + ", got '" + std::string(t) + "'");
    return v;
  }
  [[noreturn]] void fail(const std::string& msg) const { throw InputError(where() + ": " + msg); }
  std::string where() const { return in_.path() + ":" + std::to_string(in_.line_number()); }
  std::string_view line() const { return line_; }

 private:
  LineReader in_;
  std::string_view line_;
  size_t cursor_ = 0;
};

}  // namespace mlsys::gnn
