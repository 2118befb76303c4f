#pragma once
// A small JSON value with a parser and a deterministic writer (object keys keep insertion order,
// numbers print with the shortest round-trip form) so summaries are byte-identical across runs.
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
  Json(int x) : v_(static_cast<double>(x)) {}
  Json(int64_t x) : v_(static_cast<double>(x)) {}
  Json(uint64_t x) : v_(static_cast<double>(x)) {}
  Json(long long x) : v_(static_cast<double>(x)) {}
  Json(unsigned long long x) : v_(static_cast<double>(x)) {}
  Json(double x) : v_(x) {}
  Json(const char* s) : v_(std::string(s)) {}
  Json(std::string s) : v_(std::move(s)) {}
  Json(std::string_view s) : v_(std::string(s)) {}
  Json(Array a) : v_(std::move(a)) {}
  Json(Object o) : v_(std::move(o)) {}

  static Json array() { return Json(Array{}); }
  static Json object() { return Json(Object{}); }
  // Throws mlsys::Error with the byte offset (line:col) of the problem.
  static Json parse(std::string_view text);

  bool is_null() const { return std::holds_alternative<std::nullptr_t>(v_); }
  bool is_bool() const { return std::holds_alternative<bool>(v_); }
  bool is_number() const { return std::holds_alternative<double>(v_); }
  bool is_string() const { return std::holds_alternative<std::string>(v_); }
  bool is_array() const { return std::holds_alternative<Array>(v_); }
  bool is_object() const { return std::holds_alternative<Object>(v_); }

  bool as_bool() const;
  double as_number() const;
  int64_t as_int() const { return static_cast<int64_t>(as_number()); }
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
  std::variant<std::nullptr_t, bool, double, std::string, Array, Object> v_;
};

std::string json_escape(std::string_view s);
std::string format_number(double x);

}  // namespace mlsys
