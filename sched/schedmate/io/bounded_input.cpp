#include "sched/schedmate/io/bounded_input.hpp"

#include <algorithm>
#include <fstream>
#include <system_error>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "core/util/strings.hpp"

namespace mlsys::schedmate {

namespace fs = std::filesystem;

const config::Section<InputLimits>& input_limits_section() {
  using L = InputLimits;
  static const config::Section<L> s("limits", "SchedMate input limits", [](auto& s) {
    s.field("max_log_bytes", &L::max_log_bytes, "Largest log file read").range(1, int64_t{1} << 40);
    s.field("max_jobs_bytes", &L::max_jobs_bytes, "Largest JSONL file of job specs read").range(1, int64_t{1} << 40);
    s.field("max_script_bytes", &L::max_script_bytes, "Largest \"@file\" script read").range(1, int64_t{1} << 32);
    s.field("max_line_bytes", &L::max_line_bytes, "Longer log lines are cut (and counted)").range(80, int64_t{1} << 30);
    s.field("max_json_depth", &L::max_json_depth, "Deepest nesting accepted in a server's JSON reply").range(4, 200);
  });
  return s;
}

std::string read_regular_file(const fs::path& path, int64_t max_bytes, const std::string& limit_key) {
  const uint64_t size = check_input_file(path, {static_cast<uint64_t>(std::max<int64_t>(max_bytes, 0)), limit_key});
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path.string() + ": cannot open");
  // Never more than the limit, even if the file grows while it is read (/proc files report 0).
  std::string out(static_cast<size_t>(size), '\0');
  in.read(out.data(), static_cast<std::streamsize>(out.size()));
  out.resize(static_cast<size_t>(in.gcount()));
  return out;
}

std::string valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const size_t n = s.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char c = p[i];
    size_t len = 0;
    uint32_t cp = 0, min = 0;
    if (c < 0x80) len = 1, cp = c;
    else if ((c & 0xE0) == 0xC0) len = 2, cp = c & 0x1F, min = 0x80;
    else if ((c & 0xF0) == 0xE0) len = 3, cp = c & 0x0F, min = 0x800;
    else if ((c & 0xF8) == 0xF0) len = 4, cp = c & 0x07, min = 0x10000;
    bool ok = len > 0 && i + len <= n;
    for (size_t k = 1; ok && k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) ok = false;
      else cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    // Overlong forms, surrogates and code points past U+10FFFF are invalid too.
    if (ok && len > 1 && (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))) ok = false;
    if (ok) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

bool is_annotation(std::string_view line) {
  if (line.size() < 4 || line[0] != '#' || line[1] != ' ') return false;
  size_t i = 2;
  while (i < line.size() && ((line[i] >= 'A' && line[i] <= 'Z') || line[i] == '_')) ++i;
  return i > 2 && i < line.size() && line[i] == ':';
}

LogText log_lines(std::string_view text, const InputLimits& limits, bool keep_annotations) {
  LogText out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view line = text.substr(pos, nl - pos);
    pos = nl + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!keep_annotations && is_annotation(line)) {
      ++out.annotations;
      continue;
    }
    if (line.size() > limits.max_line_bytes) {
      line = line.substr(0, limits.max_line_bytes);
      ++out.cut_lines;
    }
    out.lines.push_back(valid_utf8(line));
  }
  return out;
}

LogText read_log(const fs::path& path, const InputLimits& limits, bool keep_annotations) {
  return log_lines(read_regular_file(path, limits.max_log_bytes, "schedmate.limits.max_log_bytes"), limits,
                   keep_annotations);
}

std::string read_referenced_file(const std::string& reference, const fs::path& base_dir, const fs::path& allowed_dir,
                                 const InputLimits& limits, const std::string& where) {
  fs::path p = reference;
  if (p.is_relative()) p = base_dir / p;
  std::error_code ec;
  const fs::path real = fs::weakly_canonical(p, ec);
  const fs::path root = fs::weakly_canonical(allowed_dir.empty() ? fs::path(".") : allowed_dir, ec);
  if (ec) throw InputError(where + ": cannot resolve '@" + reference + "': " + ec.message());
  // Inside the allowed folder: every component of the root is a prefix of the file's path.
  auto r = root.begin();
  auto f = real.begin();
  for (; r != root.end() && f != real.end(); ++r, ++f)
    if (*r != *f) break;
  if (r != root.end() || real == root)
    throw InputError(where + ": '@" + reference + "' resolves to " + real.string() + ", outside " + root.string() +
                     "; put scripts there or set schedmate.script_dir to their folder");
  return read_regular_file(real, limits.max_script_bytes, "schedmate.limits.max_script_bytes");
}

int json_depth(std::string_view text, int cap) {
  int depth = 0, best = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') {
      best = std::max(best, ++depth);
      if (best > cap) return best;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return best;
}

}  // namespace mlsys::schedmate
