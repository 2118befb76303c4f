// The one checked conversion (core/util/number_parse.hpp): text and decoded values against field
// rules, the shared table of bad numbers, error messages naming field, text and range.
#include "core/util/number_parse.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "core/util/error.hpp"
#include "core/util/json.hpp"
#include "core/util/npy.hpp"
#include "tests/common/bad_numbers.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
using mlsys::test::thrown_message;

namespace {
constexpr IntRule kGpus{"num_gpus", 0, 1 << 20};
constexpr RealRule kDuration{"duration", 0, 1e10};
constexpr RealRule kFeature{"feature", -kFloat32Max, kFloat32Max};

NumberProblem int_problem(std::string_view text, const IntRule& rule = kGpus) {
  int64_t v = -7;
  const NumberProblem p = parse_number(text, rule, v);
  if (p != NumberProblem::kOk) CHECK(v == -7);  // a refused value never reaches the caller
  return p;
}
NumberProblem real_problem(std::string_view text, const RealRule& rule) {
  double v = -7;
  return parse_number(text, rule, v);
}
}  // namespace

TEST_CASE("number_parse: integers, integral decimals, trimming") {
  int64_t v = 0;
  CHECK(parse_number("42", kGpus, v) == NumberProblem::kOk);
  CHECK(v == 42);
  CHECK(parse_number(" +8\r", kGpus, v) == NumberProblem::kOk);
  CHECK(v == 8);
  CHECK(parse_number("4.0", kGpus, v) == NumberProblem::kOk);  // exporters write counts as floats
  CHECK(v == 4);
  CHECK(parse_number("1e3", kGpus, v) == NumberProblem::kOk);
  CHECK(v == 1000);
  CHECK(parse_number("-9223372036854775808", kAnyInt64, v) == NumberProblem::kOk);
  CHECK(v == std::numeric_limits<int64_t>::min());
  CHECK(parse_number("9223372036854775807", kAnyInt64, v) == NumberProblem::kOk);
  CHECK(v == std::numeric_limits<int64_t>::max());
}

TEST_CASE("number_parse: every bad number of the shared table is refused where a count is due, with its reason") {
  CHECK(int_problem("-1") == NumberProblem::kTooSmall);
  CHECK(int_problem("2147483648") == NumberProblem::kTooLarge);
  CHECK(int_problem("9223372036854775808", kAnyInt64) == NumberProblem::kTooLarge);  // never wraps
  CHECK(int_problem("-9223372036854775809", kAnyInt64) == NumberProblem::kTooSmall);
  CHECK(int_problem("1e300", kAnyInt64) == NumberProblem::kTooLarge);
  CHECK(int_problem("nan", kAnyInt64) == NumberProblem::kNotFinite);
  CHECK(int_problem("2.7", kAnyInt64) == NumberProblem::kNotAnInteger);  // never truncated to 2
  CHECK(int_problem("") == NumberProblem::kEmpty);
  CHECK(int_problem("  ") == NumberProblem::kEmpty);
  CHECK(int_problem("12abc") == NumberProblem::kNotANumber);
  CHECK(int_problem("0x10") == NumberProblem::kNotANumber);
  for (const auto& b : test::kBadNumbers) {
    CAPTURE(b.text);
    if (b.refused_as_count) CHECK(int_problem(b.text) != NumberProblem::kOk);
    if (b.refused_as_feature) CHECK(real_problem(b.text, kFeature) != NumberProblem::kOk);
    if (b.refused_as_duration) CHECK(real_problem(b.text, kDuration) != NumberProblem::kOk);
  }
}

TEST_CASE("number_parse: reals are finite and inside the rule") {
  double d = 0;
  CHECK(parse_number("2.5", kDuration, d) == NumberProblem::kOk);
  CHECK(d == 2.5);
  CHECK(real_problem("inf", kAnyReal) == NumberProblem::kNotFinite);
  CHECK(real_problem("-inf", kAnyReal) == NumberProblem::kNotFinite);
  CHECK(real_problem("NaN", kAnyReal) == NumberProblem::kNotFinite);
  CHECK(real_problem("1e999", kAnyReal) == NumberProblem::kTooLarge);
  CHECK(real_problem("-1e999", kAnyReal) == NumberProblem::kTooSmall);
  CHECK(real_problem("1e-999", kAnyReal) == NumberProblem::kUnderflow);
  CHECK(real_problem("1e300", kFeature) == NumberProblem::kTooLarge);  // a double, but no float32
  CHECK(real_problem("-1", kDuration) == NumberProblem::kTooSmall);
  float f = 0;
  CHECK(parse_number("0.1", kFeature, f) == NumberProblem::kOk);
  CHECK(f == 0.1f);  // rounded once from the text
  CHECK(parse_number("1e39", kFeature, f) == NumberProblem::kTooLarge);
  CHECK(parse_number("nan", kFeature, f) == NumberProblem::kNotFinite);
}

TEST_CASE("number_parse: messages name where, field, text and the allowed range") {
  const std::string e = thrown_message<InputError>([] { parse_field("2.7", kGpus, "jobs.jsonl:3"); });
  CHECK_MESSAGE(e == "jobs.jsonl:3: field 'num_gpus' = '2.7': not an integer (expected an integer from 0 to 1048576)", e);
  CHECK(thrown_message<InputError>([] { parse_field("nan", kDuration); }) ==
        "field 'duration' = 'nan': not a finite number (expected a finite number from 0 to 10000000000)");
  CHECK(thrown_message<InputError>([] { parse_field(std::string(100, '9'), kAnyInt64); }).find("'9999999999999999999999999999999999999999...': too large") !=
        std::string::npos);
}

TEST_CASE("number_parse: decoded values, JSON numbers and arrays") {
  int64_t v = 0;
  CHECK(check_number(3.0, kGpus, v) == NumberProblem::kOk);
  CHECK(v == 3);
  CHECK(check_number(2.7, kGpus, v) == NumberProblem::kNotAnInteger);
  CHECK(check_number(9.3e18, kAnyInt64, v) == NumberProblem::kTooLarge);
  CHECK(check_number(std::nan(""), kGpus, v) == NumberProblem::kNotFinite);
  CHECK(check_number(int64_t{-3}, kGpus) == NumberProblem::kTooSmall);
  CHECK(check_field(int64_t{5}, kGpus) == 5);
  CHECK(thrown_message<InputError>([] { check_field(99999999999.0, kGpus, "x"); }).find("x: field 'num_gpus' = '99999999999': too large") == 0);

  CHECK(json_number(Json::parse("99999999999"), kGpus, v) == NumberProblem::kTooLarge);
  CHECK(json_number(Json::parse("18446744073709551615"), kAnyInt64, v) == NumberProblem::kTooLarge);
  CHECK(json_number(Json::parse("-3"), kGpus, v) == NumberProblem::kTooSmall);
  CHECK(json_number(Json::parse("2.7"), kGpus, v) == NumberProblem::kNotAnInteger);
  CHECK(json_number(Json::parse("\"4\""), kGpus, v) == NumberProblem::kNotANumber);
  CHECK(json_number(Json::parse("4"), kGpus, v) == NumberProblem::kOk);
  CHECK(v == 4);
  double d = 0;
  CHECK(json_number(Json::parse("1e300"), kDuration, d) == NumberProblem::kTooLarge);
  CHECK(json_field(Json::parse("12.5"), kDuration) == 12.5);

  const float feats[] = {0.f, 1.f, std::nanf(""), 2.f};
  CHECK(first_refused(feats, 4, kFeature) == 2);
  CHECK(first_refused(feats, 2, kFeature) == -1);
  const float inf[] = {std::numeric_limits<float>::infinity()};
  CHECK(first_refused(inf, 1, kFeature) == 0);
  const uint8_t split[] = {0, 1, 2, 3, 9};
  CHECK(first_refused(split, 5, IntRule{"split", 0, 3}) == 4);
  const int32_t labels[] = {0, 9, -2};
  CHECK(first_refused(labels, 3, IntRule{"label", -1, 9}) == 2);
}

TEST_CASE("number_parse: .npy integer arrays under a rule refuse booleans and values outside it") {
  NpyArray b;
  b.where = "g.npz: edge_index";
  b.type = NpyType::b1;
  b.shape = {2, 1};
  b.bytes = std::string("\x01\x00", 2);
  CHECK(b.ints() == std::vector<int64_t>{1, 0});  // masks still read
  CHECK(thrown_message<InputError>([&] { b.ints(IntRule{"ids"}); }).find("g.npz: edge_index: is a boolean array") == 0);
  NpyArray f;
  f.where = "g.npz: node_types";
  f.type = NpyType::i4;
  f.shape = {2};
  const int32_t raw[] = {1, 9};
  f.bytes = std::string(reinterpret_cast<const char*>(raw), sizeof raw);
  CHECK(thrown_message<InputError>([&] { f.ints(IntRule{"node_types", 0, 3}); })
            .find("g.npz: node_types: element 1: field 'node_types' = '9': too large") == 0);
}
