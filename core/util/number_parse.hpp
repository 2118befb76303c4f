#pragma once
// The one checked conversion for every number read from a file (issue #30 item 1). Every reader
// (graph text/OGB/.npz/.mlsg, IDX, .npy, CSV traces, sacct, MLPerf runs and logs, SchedMate jobs,
// hints, CoOpt CSV) converts through parse_number / check_number here, against a rule that names
// the field and its allowed range; each reader keeps its rules in one table beside its code.
//
//   constexpr IntRule kGpus{"num_gpus", 0, 1 << 20};
//   int64_t g = parse_field(text, kGpus, "jobs.jsonl:3");   // InputError naming field, text, range
//
// Integer fields take an optional sign and digits; an integral decimal ("4.0", "1e3") is accepted
// because exporters write counts as floats, a fraction ("2.7") is refused, never truncated, and a
// value past int64 is "too large", never wrapped. Real fields refuse NaN and infinity always (a
// NaN feature, label or duration is never data) and values outside the rule's range ("1e300" as a
// duration). Text is trimmed of spaces, tabs and '\r'. Conversion costs what std::from_chars costs
// and allocates nothing; only the error message allocates.
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

namespace mlsys {

class Json;

// A field whose values are integers in [min, max].
struct IntRule {
  std::string_view field;
  int64_t min = std::numeric_limits<int64_t>::min();
  int64_t max = std::numeric_limits<int64_t>::max();
};

// A field whose values are finite reals in [min, max].
struct RealRule {
  std::string_view field;
  double min = -std::numeric_limits<double>::max();
  double max = std::numeric_limits<double>::max();
};

// Rules for fields whose only constraint is the type (callers that report ranges themselves).
inline constexpr IntRule kAnyInt64{"integer"};
inline constexpr RealRule kAnyReal{"number"};
// The largest time or duration in seconds a file may state where no horizon is configured: 10^12 s
// (31,700 years) holds epoch seconds and any real run; past it (1e300) the value is damaged.
inline constexpr double kMaxFileSeconds = 1e12;
// The range of a float32 (features stored as float: a larger double would become infinity).
inline constexpr double kFloat32Max = 3.4028234663852886e38;

// Why a number was refused; kOk when it was not.
enum class NumberProblem : uint8_t { kOk, kEmpty, kNotANumber, kNotAnInteger, kNotFinite, kTooSmall, kTooLarge, kUnderflow };

// What a problem says in a message ("not an integer").
std::string_view describe(NumberProblem p);

// ---- text -> value ----
namespace detail {
// Every case (spaces, '+', decimals where an integer is due, the reason of a refusal).
NumberProblem parse_number_full(std::string_view text, const IntRule& rule, int64_t& out) noexcept;
NumberProblem parse_number_full(std::string_view text, const RealRule& rule, double& out) noexcept;
}  // namespace detail

// Inline for the common case, a plain number inside the range (the trace readers convert several
// fields per row: a call into the library for each measured 5% of an OpenB read); anything else
// takes the full path.
inline NumberProblem parse_number(std::string_view text, const IntRule& rule, int64_t& out) noexcept {
  int64_t v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec == std::errc() && p == text.data() + text.size() && v >= rule.min && v <= rule.max) {
    out = v;
    return NumberProblem::kOk;
  }
  return detail::parse_number_full(text, rule, out);
}
inline NumberProblem parse_number(std::string_view text, const RealRule& rule, double& out) noexcept {
  double v = 0;
  const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec == std::errc() && p == text.data() + text.size() && v >= rule.min && v <= rule.max) {  // false for NaN
    out = v;
    return NumberProblem::kOk;
  }
  return detail::parse_number_full(text, rule, out);
}
// A float32 cell, rounded once from the text (as std::from_chars<float>), never through a double.
NumberProblem parse_number(std::string_view text, const RealRule& rule, float& out) noexcept;

// ---- a value already decoded (binary files, JSON numbers) -> checked value ----
// A double where an integer is due (JSON numbers, float arrays): integral and in range.
NumberProblem check_number(double value, const IntRule& rule, int64_t& out) noexcept;
NumberProblem check_number(int64_t value, const IntRule& rule) noexcept;
NumberProblem check_number(double value, const RealRule& rule) noexcept;

// "field 'num_gpus' = '2.7': not an integer (allowed 0 to 1048576)"; `where` (file:line), when
// given, comes first followed by ": ".
std::string number_error(std::string_view where, std::string_view text, const IntRule& rule, NumberProblem p);
std::string number_error(std::string_view where, std::string_view text, const RealRule& rule, NumberProblem p);

// Throwing forms: the value, or InputError(number_error(...)).
int64_t parse_field(std::string_view text, const IntRule& rule, std::string_view where = {});
double parse_field(std::string_view text, const RealRule& rule, std::string_view where = {});
int64_t check_field(double value, const IntRule& rule, std::string_view where = {});
int64_t check_field(int64_t value, const IntRule& rule, std::string_view where = {});
double check_field(double value, const RealRule& rule, std::string_view where = {});

// ---- a JSON value (core/util/json.hpp) -> checked value: the point of use of a JSON number ----
// Integers exactly (a uint64 past int64 is too large), doubles as check_number; a non-number is
// kNotANumber. The throwing forms show the value as JSON.
NumberProblem json_number(const Json& value, const IntRule& rule, int64_t& out) noexcept;
NumberProblem json_number(const Json& value, const RealRule& rule, double& out) noexcept;
int64_t json_field(const Json& value, const IntRule& rule, std::string_view where = {});
double json_field(const Json& value, const RealRule& rule, std::string_view where = {});

// ---- arrays of decoded binary values: the index of the first element the rule refuses, or -1 ----
// Floats: NaN, infinity and values outside the range; integers and enum bytes: outside the range.
int64_t first_refused(const float* values, size_t n, const RealRule& rule) noexcept;
int64_t first_refused(const int32_t* values, size_t n, const IntRule& rule) noexcept;
int64_t first_refused(const int64_t* values, size_t n, const IntRule& rule) noexcept;
int64_t first_refused(const uint8_t* values, size_t n, const IntRule& rule) noexcept;

}  // namespace mlsys
