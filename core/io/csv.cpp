#include "core/io/csv.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cmath>
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

// ---- writing ----

void append_csv_field(std::string& out, std::string_view s, bool force_quote) {
  // A plain loop: find_first_of searches the 4-character set once per character of s.
  const auto special = [](char c) { return c == ',' || c == '"' || c == '\n' || c == '\r'; };
  if (!force_quote && std::none_of(s.begin(), s.end(), special)) {
    out.append(s);
    return;
  }
  out += '"';
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

void append_csv_integer(std::string& out, int64_t v) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

void append_csv_number(std::string& out, double v) {
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    if (v == 0 && std::signbit(v)) out += '-';  // printf's "%.0f" keeps the sign of -0
    append_csv_integer(out, static_cast<int64_t>(v));
    return;
  }
  char buf[32];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

CsvFileWriter::CsvFileWriter(std::filesystem::path path, size_t buffer_bytes)
    : path_(std::move(path)), limit_(std::max<size_t>(buffer_bytes, 4096)) {
  // A fresh name in the same folder (the rename stays atomic), created exclusively: an existing
  // file or link of that name is never written through.
  static std::atomic<uint64_t> counter{0};
  for (int attempt = 0; fd_ < 0; ++attempt) {
    tmp_ = path_;
    tmp_ += ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter.fetch_add(1));
    fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd_ < 0 && (errno != EEXIST || attempt > 100))
      throw Error(path_.string() + ": cannot write (" + std::strerror(errno) + ")");
  }
  buf_.reserve(limit_ + 4096);
}

CsvFileWriter::~CsvFileWriter() {
  if (fd_ >= 0) {
    ::close(fd_);
    std::error_code ec;
    std::filesystem::remove(tmp_, ec);
  }
}

void CsvFileWriter::header(const std::vector<std::string>& names) {
  for (const auto& n : names) field(n);
  buf_ += '\n';
  first_ = true;
}

void CsvFileWriter::flush() {
  const char* p = buf_.data();
  size_t left = buf_.size();
  while (left > 0) {
    ssize_t w = ::write(fd_, p, left);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) throw Error(path_.string() + ": write failed (" + std::strerror(errno) + "; disk full?)");
    p += w;
    left -= static_cast<size_t>(w);
  }
  buf_.clear();
}

void CsvFileWriter::commit() {
  if (fd_ < 0) throw Error(path_.string() + ": already written");
  flush();
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    std::error_code ec;
    std::filesystem::remove(tmp_, ec);
    throw Error(path_.string() + ": write failed (" + std::strerror(errno) + "; disk full?)");
  }
  std::error_code ec;
  std::filesystem::rename(tmp_, path_, ec);
  if (ec) {
    std::filesystem::remove(tmp_, ec);
    throw Error(path_.string() + ": cannot write (" + ec.message() + ")");
  }
}

}  // namespace mlsys
