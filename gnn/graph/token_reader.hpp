#pragma once
// Tokens of a text graph file, line by line: the lines come from the project's line reader
// (core/io/line_reader.hpp: streaming through a fixed buffer, plain or gzip), blank lines are
// skipped, and every error names file:line.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/util/error.hpp"
#include "core/io/line_reader.hpp"
#include "core/util/number_parse.hpp"

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
  // The next token as an integer under `rule` (core/util/number_parse.hpp): "2.7", "1e300", digits
  // past int64 and values outside the rule fail naming the field, the text and the range.
  int64_t integer(const IntRule& rule, char sep = ' ') { return integer_of(token(sep), rule); }
  int64_t integer(std::string_view what, char sep = ' ') { return integer(IntRule{what}, sep); }
  int64_t integer_of(std::string_view t, const IntRule& rule) {
    int64_t v = 0;
    if (const NumberProblem p = parse_number(t, rule, v); p != NumberProblem::kOk) fail(number_error("", t, rule, p));
    return v;
  }
  // A number under `rule`, where a value the rule refuses for its size (NaN, infinity, past the
  // range) comes back as NaN: the loaders refuse its row or, with gnn.graph.lenient, count it. Text
  // that is no number at all fails.
  double number(std::string_view t, const RealRule& rule) {
    double v = 0;
    const NumberProblem p = parse_number(t, rule, v);
    if (p == NumberProblem::kOk) return v;
    if (p == NumberProblem::kNotFinite || p == NumberProblem::kTooLarge || p == NumberProblem::kTooSmall) return NAN;
    fail(number_error("", t, rule, p));
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
