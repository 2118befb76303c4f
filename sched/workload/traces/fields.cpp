#include "sched/workload/traces/fields.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "core/util/number_parse.hpp"
#include "core/util/strings.hpp"

namespace mlsys::workload {

// Cheaper than mlsys::trim (no locale lookups); these run several times per row.
static std::string_view trim_fast(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool blank(std::string_view s) { return trim_fast(s).empty(); }

std::optional<double> parse_double(std::string_view s) {
  double v = 0;
  if (parse_number(s, kAnyReal, v) != NumberProblem::kOk) return std::nullopt;
  return v;
}

std::optional<int64_t> parse_int(std::string_view s) {
  int64_t v = 0;
  if (parse_number(s, kAnyInt64, v) != NumberProblem::kOk) return std::nullopt;
  return v;
}

namespace {

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// Inverse of days_from_civil (the same algorithm run backwards).
void civil_from_days(int64_t z, int64_t& y, int64_t& m, int64_t& d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp + (mp < 10 ? 3 : -9);
  y = yoe + era * 400 + (m <= 2);
}

bool digits(std::string_view s, size_t pos, size_t len, int64_t& out) {
  if (pos + len > s.size()) return false;
  int64_t v = 0;
  for (size_t i = pos; i < pos + len; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  out = v;
  return true;
}

}  // namespace

std::optional<int64_t> parse_datetime(std::string_view s) {
  s = trim(s);
  int64_t y, mo, d, h = 0, mi = 0, se = 0;
  if (s.size() < 10 || !digits(s, 0, 4, y) || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-' ||
      !digits(s, 8, 2, d))
    return std::nullopt;
  if (s.size() > 10) {
    if ((s[10] != ' ' && s[10] != 'T') || !digits(s, 11, 2, h) || s.size() < 19 || s[13] != ':' ||
        !digits(s, 14, 2, mi) || s[16] != ':' || !digits(s, 17, 2, se))
      return std::nullopt;
    // Optional fraction of a second, ignored (traces record whole seconds).
    for (size_t i = 19; i < s.size(); ++i)
      if (!(s[i] == '.' && i == 19) && (s[i] < '0' || s[i] > '9')) return std::nullopt;
  }
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60) return std::nullopt;
  return days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se;
}

std::string format_datetime(int64_t t) {
  const int64_t day = day_start(t), rem = t - day;
  int64_t y, m, d;
  civil_from_days(day / 86400, y, m, d);
  char buf[96];  // room for any int64 fields, so the compiler can prove no truncation
  std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lld %02lld:%02lld:%02lld", static_cast<long long>(y),
                static_cast<long long>(m), static_cast<long long>(d), static_cast<long long>(rem / 3600),
                static_cast<long long>(rem / 60 % 60), static_cast<long long>(rem % 60));
  return buf;
}

int64_t day_start(int64_t t) {
  int64_t days = t >= 0 ? t / 86400 : -((-t + 86399) / 86400);
  return days * 86400;
}

}  // namespace mlsys::workload
