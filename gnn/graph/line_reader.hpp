#pragma once
// Line-by-line tokenizing of a text file already in memory, with errors that name file:line.
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/util/error.hpp"

namespace mlsys::gnn {

class LineReader {
 public:
  LineReader(std::string path, std::string_view text) : path_(std::move(path)), text_(text) {}

  // Advances to the next non-empty line; false at end of file.
  bool next() {
    while (pos_ < text_.size()) {
      size_t end = text_.find('\n', pos_);
      if (end == std::string_view::npos) end = text_.size();
      line_ = text_.substr(pos_, end - pos_);
      if (!line_.empty() && line_.back() == '\r') line_.remove_suffix(1);
      pos_ = end + 1;
      ++line_no_;
      cursor_ = 0;
      if (line_.find_first_not_of(" \t") != std::string_view::npos) return true;
    }
    return false;
  }
  // The next whitespace- or `sep`-separated token of the current line ("" at its end).
  std::string_view token(char sep = ' ') {
    while (cursor_ < line_.size() && (line_[cursor_] == ' ' || line_[cursor_] == '\t' || line_[cursor_] == sep)) ++cursor_;
    size_t b = cursor_;
    while (cursor_ < line_.size() && line_[cursor_] != ' ' && line_[cursor_] != '\t' && line_[cursor_] != sep) ++cursor_;
    return line_.substr(b, cursor_ - b);
  }
  bool at_end() {
    while (cursor_ < line_.size() && (line_[cursor_] == ' ' || line_[cursor_] == '\t')) ++cursor_;
    return cursor_ >= line_.size();
  }
  int64_t integer(std::string_view what, char sep = ' ') {
    std::string_view t = token(sep);
    int64_t v = 0;
    auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size())
      fail("expected an integer " + std::string(what) + ", got '" + std::string(t) + "'");
    return v;
  }
  double number(std::string_view t, std::string_view what) {
    double v = 0;
    auto r = std::from_chars(t.data(), t.data() + t.size(), v);
    if (t.empty() || r.ec != std::errc() || r.ptr != t.data() + t.size())
      fail("expected a number " + std::string(what) + ", got '" + std::string(t) + "'");
    return v;
  }
  [[noreturn]] void fail(const std::string& msg) const {
    throw InputError(path_ + ":" + std::to_string(line_no_) + ": " + msg);
  }
  std::string_view line() const { return line_; }
  size_t line_no() const { return line_no_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::string_view text_, line_;
  size_t pos_ = 0, cursor_ = 0, line_no_ = 0;
};

}  // namespace mlsys::gnn
