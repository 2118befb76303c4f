#include "sched/schedmate/tracker/line_time.hpp"

namespace mlsys::schedmate {

namespace {
inline bool dig(char c) { return c >= '0' && c <= '9'; }
inline int num2(const char* p) { return (p[0] - '0') * 10 + (p[1] - '0'); }
}  // namespace

long days_from_civil(long y, unsigned m, unsigned d) {
  y -= m <= 2;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long>(doe) - 719468;
}

LineTime parse_line_time(std::string_view line) {
  LineTime t;
  size_t i = 0;
  while (i < line.size() && line[i] == ' ') ++i;
  bool bracket = i < line.size() && line[i] == '[';
  if (bracket) ++i;
  // YYYY-MM-DD?HH:MM:SS
  if (line.size() < i + 19) return t;
  const char* p = line.data() + i;
  if (!(dig(p[0]) && dig(p[1]) && dig(p[2]) && dig(p[3]) && p[4] == '-' && dig(p[5]) && dig(p[6]) && p[7] == '-' &&
        dig(p[8]) && dig(p[9]) && (p[10] == 'T' || p[10] == ' ') && dig(p[11]) && dig(p[12]) && p[13] == ':' &&
        dig(p[14]) && dig(p[15]) && p[16] == ':' && dig(p[17]) && dig(p[18])))
    return t;
  long year = num2(p) * 100 + num2(p + 2);
  unsigned mon = static_cast<unsigned>(num2(p + 5)), day = static_cast<unsigned>(num2(p + 8));
  if (mon < 1 || mon > 12 || day < 1 || day > 31) return t;
  double secs = static_cast<double>(days_from_civil(year, mon, day)) * 86400.0 + num2(p + 11) * 3600.0 +
                num2(p + 14) * 60.0 + num2(p + 17);
  size_t j = i + 19;
  if (j < line.size() && (line[j] == '.' || line[j] == ',')) {
    ++j;
    double scale = 0.1;
    while (j < line.size() && dig(line[j])) {
      secs += (line[j] - '0') * scale;
      scale *= 0.1;
      ++j;
    }
  }
  // Zone suffix: Z or +hh:mm (ignored: only differences matter to the tracker).
  if (j < line.size() && line[j] == 'Z') ++j;
  else if (j + 5 < line.size() && (line[j] == '+' || line[j] == '-') && dig(line[j + 1])) j += line[j + 3] == ':' ? 6 : 5;
  if (bracket && j < line.size() && line[j] == ']') ++j;
  while (j < line.size() && line[j] == ' ') ++j;
  t.found = true;
  t.seconds = secs;
  t.end = j;
  return t;
}

bool parse_clock(std::string_view s, double& seconds) {
  double total = 0, part = 0;
  int fields = 0;
  bool any = false;
  for (char c : s) {
    if (dig(c)) {
      part = part * 10 + (c - '0');
      any = true;
    } else if (c == ':') {
      if (!any) return false;
      total = total * 60 + part;
      part = 0;
      any = false;
      ++fields;
    } else {
      return false;
    }
  }
  if (!any || fields == 0 || fields > 2) return false;
  seconds = total * 60 + part;
  return true;
}

}  // namespace mlsys::schedmate
