#include "core/util/number_parse.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/util/error.hpp"
#include "core/util/json.hpp"

namespace mlsys {

namespace {

// Cheaper than mlsys::trim (no locale lookups): this runs for every field of every row.
std::string_view trim_number(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  return s;
}

// 2^63 as a double: every double strictly below it (and at or above -2^63) converts to int64.
constexpr double kTwoPow63 = 9223372036854775808.0;

// The decimal text's value as a double, or kNotANumber / kNotFinite.
NumberProblem text_to_double(std::string_view s, double& out) noexcept {
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  if (p != s.data() + s.size()) return NumberProblem::kNotANumber;
  if (ec == std::errc::result_out_of_range) {
    // Past double's range ("1e999") is too large; an underflow ("1e-999") is refused too: no field
    // of any reader holds such a value, so it is a damaged cell (the readers refused it before).
    const bool negative = s.front() == '-';
    const size_t e = s.find_first_of("eE");
    const bool tiny = e != std::string_view::npos && e + 1 < s.size() && s[e + 1] == '-';
    if (tiny) return NumberProblem::kUnderflow;
    return negative ? NumberProblem::kTooSmall : NumberProblem::kTooLarge;
  }
  if (ec != std::errc()) return NumberProblem::kNotANumber;
  if (!std::isfinite(out)) return NumberProblem::kNotFinite;
  return NumberProblem::kOk;
}

std::string range_text(const IntRule& r) {
  constexpr int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  if (r.min == lo && r.max == hi) return "an integer";
  if (r.max == hi) return fmt::format("an integer >= {}", r.min);
  if (r.min == lo) return fmt::format("an integer <= {}", r.max);
  return fmt::format("an integer from {} to {}", r.min, r.max);
}

std::string range_text(const RealRule& r) {
  const double hi = std::numeric_limits<double>::max();
  if (r.min == -hi && r.max == hi) return "a finite number";
  if (r.max == hi) return fmt::format("a finite number >= {}", r.min);
  if (r.min == -hi) return fmt::format("a finite number <= {}", r.max);
  return fmt::format("a finite number from {} to {}", r.min, r.max);
}

template <class Rule>
std::string error_text(std::string_view where, std::string_view text, const Rule& rule, NumberProblem p) {
  // Long cells (a damaged row) are cut: the message must stay one readable line.
  constexpr size_t kShown = 40;
  const std::string shown = text.size() > kShown ? std::string(text.substr(0, kShown)) + "..." : std::string(text);
  return fmt::format("{}{}field '{}' = '{}': {} (expected {})", where, where.empty() ? "" : ": ", rule.field, shown,
                     describe(p), range_text(rule));
}

template <class T>
int64_t first_outside(const T* v, size_t n, const IntRule& rule) noexcept {
  for (size_t i = 0; i < n; ++i)
    if (static_cast<int64_t>(v[i]) < rule.min || static_cast<int64_t>(v[i]) > rule.max) return static_cast<int64_t>(i);
  return -1;
}

}  // namespace

std::string_view describe(NumberProblem p) {
  switch (p) {
    case NumberProblem::kOk: return "accepted";
    case NumberProblem::kEmpty: return "empty";
    case NumberProblem::kNotANumber: return "not a number";
    case NumberProblem::kNotAnInteger: return "not an integer";
    case NumberProblem::kNotFinite: return "not a finite number";
    case NumberProblem::kTooSmall: return "too small";
    case NumberProblem::kTooLarge: return "too large";
    case NumberProblem::kUnderflow: return "too close to zero for its type (underflow)";
  }
  return "refused";
}

NumberProblem check_number(int64_t value, const IntRule& rule) noexcept {
  if (value < rule.min) return NumberProblem::kTooSmall;
  if (value > rule.max) return NumberProblem::kTooLarge;
  return NumberProblem::kOk;
}

NumberProblem check_number(double value, const IntRule& rule, int64_t& out) noexcept {
  if (!std::isfinite(value)) return NumberProblem::kNotFinite;
  if (value != std::floor(value)) return NumberProblem::kNotAnInteger;
  if (value >= kTwoPow63) return NumberProblem::kTooLarge;
  if (value < -kTwoPow63) return NumberProblem::kTooSmall;
  const auto v = static_cast<int64_t>(value);
  const NumberProblem p = check_number(v, rule);
  if (p == NumberProblem::kOk) out = v;
  return p;
}

NumberProblem check_number(double value, const RealRule& rule) noexcept {
  if (!std::isfinite(value)) return NumberProblem::kNotFinite;
  if (value < rule.min) return NumberProblem::kTooSmall;
  if (value > rule.max) return NumberProblem::kTooLarge;
  return NumberProblem::kOk;
}

NumberProblem detail::parse_number_full(std::string_view text, const IntRule& rule, int64_t& out) noexcept {
  const std::string_view s = trim_number(text);
  if (s.empty()) return NumberProblem::kEmpty;
  int64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc() && p == s.data() + s.size()) {
    const NumberProblem r = check_number(v, rule);
    if (r == NumberProblem::kOk) out = v;
    return r;
  }
  // Digits past int64 ("9223372036854775808"): too large or too small, never wrapped.
  if (ec == std::errc::result_out_of_range && p == s.data() + s.size())
    return s.front() == '-' ? NumberProblem::kTooSmall : NumberProblem::kTooLarge;
  // Not plain digits: a decimal ("4.0", "2.7", "1e3", "nan") decides as a double.
  double d = 0;
  const NumberProblem r = text_to_double(s, d);
  if (r != NumberProblem::kOk) return r;
  return check_number(d, rule, out);
}

NumberProblem detail::parse_number_full(std::string_view text, const RealRule& rule, double& out) noexcept {
  const std::string_view s = trim_number(text);
  if (s.empty()) return NumberProblem::kEmpty;
  double d = 0;
  NumberProblem r = text_to_double(s, d);
  if (r == NumberProblem::kOk) r = check_number(d, rule);
  if (r == NumberProblem::kOk) out = d;
  return r;
}

NumberProblem parse_number(std::string_view text, const RealRule& rule, float& out) noexcept {
  const std::string_view s = trim_number(text);
  if (s.empty()) return NumberProblem::kEmpty;
  float f = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), f);
  if (p != s.data() + s.size() || (ec != std::errc() && ec != std::errc::result_out_of_range))
    return NumberProblem::kNotANumber;
  if (ec == std::errc::result_out_of_range) {
    // Decide too large / too small (or an underflow) as the double reading does.
    double d = 0;
    const NumberProblem r = text_to_double(s, d);
    if (r != NumberProblem::kOk) return r;
    if (std::abs(d) < 1) return NumberProblem::kUnderflow;
    return d > 0 ? NumberProblem::kTooLarge : NumberProblem::kTooSmall;
  }
  NumberProblem r = std::isfinite(f) ? check_number(static_cast<double>(f), rule) : NumberProblem::kNotFinite;
  if (r == NumberProblem::kOk) out = f;
  return r;
}

std::string number_error(std::string_view where, std::string_view text, const IntRule& rule, NumberProblem p) {
  return error_text(where, text, rule, p);
}
std::string number_error(std::string_view where, std::string_view text, const RealRule& rule, NumberProblem p) {
  return error_text(where, text, rule, p);
}

int64_t parse_field(std::string_view text, const IntRule& rule, std::string_view where) {
  int64_t v = 0;
  const NumberProblem p = parse_number(text, rule, v);
  if (p != NumberProblem::kOk) throw InputError(number_error(where, text, rule, p));
  return v;
}

double parse_field(std::string_view text, const RealRule& rule, std::string_view where) {
  double v = 0;
  const NumberProblem p = parse_number(text, rule, v);
  if (p != NumberProblem::kOk) throw InputError(number_error(where, text, rule, p));
  return v;
}

int64_t check_field(double value, const IntRule& rule, std::string_view where) {
  int64_t v = 0;
  const NumberProblem p = check_number(value, rule, v);
  if (p != NumberProblem::kOk) throw InputError(number_error(where, fmt::format("{}", value), rule, p));
  return v;
}

int64_t check_field(int64_t value, const IntRule& rule, std::string_view where) {
  const NumberProblem p = check_number(value, rule);
  if (p != NumberProblem::kOk) throw InputError(number_error(where, std::to_string(value), rule, p));
  return value;
}

double check_field(double value, const RealRule& rule, std::string_view where) {
  const NumberProblem p = check_number(value, rule);
  if (p != NumberProblem::kOk) throw InputError(number_error(where, fmt::format("{}", value), rule, p));
  return value;
}

NumberProblem json_number(const Json& value, const IntRule& rule, int64_t& out) noexcept {
  if (!value.is_number()) return NumberProblem::kNotANumber;
  if (value.is_integer()) {
    // as_int throws for a uint64 past int64: decide that here, without exceptions.
    if (value.as_number() >= kTwoPow63) return NumberProblem::kTooLarge;
    const int64_t v = value.as_int();
    const NumberProblem p = check_number(v, rule);
    if (p == NumberProblem::kOk) out = v;
    return p;
  }
  return check_number(value.as_number(), rule, out);
}

NumberProblem json_number(const Json& value, const RealRule& rule, double& out) noexcept {
  if (!value.is_number()) return NumberProblem::kNotANumber;
  const double v = value.as_number();
  const NumberProblem p = check_number(v, rule);
  if (p == NumberProblem::kOk) out = v;
  return p;
}

int64_t json_field(const Json& value, const IntRule& rule, std::string_view where) {
  int64_t v = 0;
  const NumberProblem p = json_number(value, rule, v);
  if (p != NumberProblem::kOk) throw InputError(number_error(where, value.dump(), rule, p));
  return v;
}

double json_field(const Json& value, const RealRule& rule, std::string_view where) {
  double v = 0;
  const NumberProblem p = json_number(value, rule, v);
  if (p != NumberProblem::kOk) throw InputError(number_error(where, value.dump(), rule, p));
  return v;
}

int64_t first_refused(const float* values, size_t n, const RealRule& rule) noexcept {
  // Comparisons alone: NaN fails both, so one pass finds NaN, infinity and out-of-range values.
  const auto lo = static_cast<float>(std::max(rule.min, -static_cast<double>(std::numeric_limits<float>::max())));
  const auto hi = static_cast<float>(std::min(rule.max, static_cast<double>(std::numeric_limits<float>::max())));
  for (size_t i = 0; i < n; ++i)
    if (!(values[i] >= lo && values[i] <= hi)) return static_cast<int64_t>(i);
  return -1;
}

int64_t first_refused(const int32_t* values, size_t n, const IntRule& rule) noexcept { return first_outside(values, n, rule); }
int64_t first_refused(const int64_t* values, size_t n, const IntRule& rule) noexcept { return first_outside(values, n, rule); }
int64_t first_refused(const uint8_t* values, size_t n, const IntRule& rule) noexcept { return first_outside(values, n, rule); }

}  // namespace mlsys
