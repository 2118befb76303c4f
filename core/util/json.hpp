#pragma once
// A small JSON value with a parser and a deterministic writer (object keys keep insertion order,
// numbers print with the shortest round-trip form) so summaries are byte-identical across runs.
// Integers are kept exact in 64 bits (a seed of 2^64 - 1 round-trips; doubles would stop at 2^53):
// integral C++ values and integer literals in parsed text are stored as integers, everything else
// as double. The writer always emits valid UTF-8 (invalid bytes in strings become U+FFFD) and the
// parser refuses nesting deeper than kMaxDepth.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace mlsys {

class Json {
 public:
  using Array = std::vector<Json>;
  using Object = std::vector<std::pair<std::string, Json>>;

  Json() : v_(nullptr) {}
  Json(std::nullptr_t) : v_(nullptr) {}
  Json(bool b) : v_(b) {}
  Json(int x) : v_(static_cast<int64_t>(x)) {}
  Json(long x) : v_(static_cast<int64_t>(x)) {}
  Json(long long x) : v_(static_cast<int64_t>(x)) {}
  Json(unsigned x) : v_(static_cast<int64_t>(x)) {}
  Json(unsigned long x) { set_unsigned(x); }
  Json(unsigned long long x) { set_unsigned(x); }
  Json(double x) : v_(x) {}
  Json(const char* s) : v_(std::string(s)) {}
  Json(std::string s) : v_(std::move(s)) {}
  Json(std::string_view s) : v_(std::string(s)) {}
  Json(Array a) : v_(std::move(a)) {}
  Json(Object o) : v_(std::move(o)) {}

  // Deepest nesting Json::parse accepts (arrays and objects); deeper input is an error, not a crash.
  static constexpr int kMaxDepth = 200;

  static Json array() { return Json(Array{}); }
  static Json object() { return Json(Object{}); }
  // Throws mlsys::Error with the byte offset (line:col) of the problem.
  static Json parse(std::string_view text);

  bool is_null() const { return std::holds_alternative<std::nullptr_t>(v_); }
  bool is_bool() const { return std::holds_alternative<bool>(v_); }
  bool is_number() const { return is_integer() || std::holds_alternative<double>(v_); }
  // Stored as an exact integer (int64, or uint64 above INT64_MAX).
  bool is_integer() const {
    return std::holds_alternative<int64_t>(v_) || std::holds_alternative<uint64_t>(v_);
  }
  bool is_string() const { return std::holds_alternative<std::string>(v_); }
  bool is_array() const { return std::holds_alternative<Array>(v_); }
  bool is_object() const { return std::holds_alternative<Object>(v_); }

  bool as_bool() const;
  double as_number() const;
  // Exact for integers; a double is truncated toward zero. Throws when the value does not fit.
  int64_t as_int() const;
  uint64_t as_uint() const;
  const std::string& as_string() const;
  const Array& as_array() const;
  Array& as_array();
  const Object& as_object() const;

  // Object access: operator[] inserts (keeping order); find returns nullptr when absent.
  Json& operator[](std::string_view key);
  const Json* find(std::string_view key) const;
  bool contains(std::string_view key) const { return find(key) != nullptr; }
  void push_back(Json v);
  size_t size() const;

  // indent < 0: compact one line; otherwise pretty with that many spaces.
  std::string dump(int indent = -1) const;

 private:
  void dump_to(std::string& out, int indent, int depth) const;
  template <class U>
  void set_unsigned(U x) {
    if (x <= static_cast<U>(INT64_MAX)) v_ = static_cast<int64_t>(x);
    else v_ = static_cast<uint64_t>(x);
  }
  std::variant<std::nullptr_t, bool, int64_t, uint64_t, double, std::string, Array, Object> v_;
};

// Escapes for a JSON string body; invalid UTF-8 (stray bytes, overlong forms, surrogates) becomes
// U+FFFD so the output is valid UTF-8 whatever the input (e.g. bytes copied from a log file).
std::string json_escape(std::string_view s);
std::string format_number(double x);

}  // namespace mlsys
