#include "core/util/csv.hpp"

#include <cstring>

#include "core/util/error.hpp"
#include "core/util/strings.hpp"

namespace mlsys {

bool split_csv(std::string_view line, std::vector<std::string_view>& out, std::string& scratch) {
  out.clear();
  scratch.clear();
  // Unescaped text of quoted fields goes here; reserve so views stay valid.
  if (scratch.capacity() < line.size()) scratch.reserve(line.size());
  size_t i = 0;
  const size_t n = line.size();
  for (;;) {
    if (i < n && line[i] == '"') {
      size_t start = scratch.size();
      ++i;
      bool closed = false;
      while (i < n) {
        char c = line[i];
        if (c == '"') {
          if (i + 1 < n && line[i + 1] == '"') {
            scratch.push_back('"');
            i += 2;
            continue;
          }
          closed = true;
          ++i;
          break;
        }
        scratch.push_back(c);
        ++i;
      }
      if (!closed) return false;
      out.emplace_back(scratch.data() + start, scratch.size() - start);
      // Anything between the closing quote and the next comma is ignored (lenient to spaces).
      while (i < n && line[i] != ',') ++i;
    } else {
      size_t start = i;
      const void* comma = std::memchr(line.data() + i, ',', n - i);
      i = comma ? static_cast<size_t>(static_cast<const char*>(comma) - line.data()) : n;
      out.push_back(line.substr(start, i - start));
    }
    if (i >= n) break;
    ++i;  // skip the comma
    if (i == n) {
      out.emplace_back();  // trailing empty field
      break;
    }
  }
  return true;
}

void split_plain(std::string_view line, char sep, std::vector<std::string_view>& out) {
  out.clear();
  size_t start = 0;
  for (;;) {
    size_t pos = line.find(sep, start);
    if (pos == std::string_view::npos) {
      out.push_back(line.substr(start));
      return;
    }
    out.push_back(line.substr(start, pos - start));
    start = pos + 1;
  }
}

CsvReader::CsvReader(const std::filesystem::path& path, char sep) : in_(path), sep_(sep) {}

bool CsvReader::split(std::string_view line) {
  if (sep_ == ',') return split_csv(line, fields_, scratch_);
  split_plain(line, sep_, fields_);
  return true;
}

const std::vector<std::string>& CsvReader::read_header(bool lower) {
  lower_ = lower;
  std::string_view line;
  while (in_.next(line)) {
    // A UTF-8 byte-order mark would hide the first column name.
    if (starts_with(line, "\xEF\xBB\xBF")) line.remove_prefix(3);
    if (trim(line).empty()) continue;
    if (!split(line)) throw InputError(where() + ": header has an unclosed quote");
    header_line_ = in_.line_number();
    names_.clear();
    for (auto f : fields_) names_.emplace_back(lower ? to_lower(trim(f)) : std::string(trim(f)));
    return names_;
  }
  throw InputError(path() + ": empty file (expected a header line)");
}

int CsvReader::column(std::string_view name) const {
  std::string want = lower_ ? to_lower(name) : std::string(name);
  for (size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == want) return static_cast<int>(i);
  return -1;
}

int CsvReader::require(std::string_view name, std::string_view hint) const {
  int c = column(name);
  if (c < 0)
    throw InputError(path() + ":" + std::to_string(header_line_) + ": missing column '" + std::string(name) +
                     "' (header has: " + join(names_, ",") + ")" + std::string(hint));
  return c;
}

bool CsvReader::next() {
  std::string_view line;
  while (in_.next(line)) {
    if (trim(line).empty()) continue;
    complete_ = split(line);
    return true;
  }
  return false;
}

std::string CsvReader::where(int column) const {
  std::string w = path() + ":" + std::to_string(in_.line_number());
  if (column > 0) w += ":" + std::to_string(column);
  return w;
}

}  // namespace mlsys
