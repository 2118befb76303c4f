#include "core/config/schema.hpp"

#include <cmath>
#include <filesystem>
#include <sstream>

#include "core/util/error.hpp"
#include "core/util/json.hpp"
#include "core/util/strings.hpp"

namespace mlsys::config {

namespace detail {

std::string location(const YAML::Node& n, const std::string& file) {
  const auto m = n.Mark();
  if (m.is_null() || m.line < 0) return file;
  return file + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

std::string shortest(double v) { return format_number(v); }

static std::string shown(const YAML::Node& n) {
  if (n.IsScalar()) return "'" + n.Scalar() + "'";
  if (n.IsSequence()) return "a list";
  if (n.IsMap()) return "a map";
  return "an empty value";
}

void fail(const YAML::Node& n, const std::string& file, const std::string& path, const std::string& value,
          const std::string& what) {
  throw ConfigError(location(n, file) + ": " + path + " = " + value + ": " + what);
}

bool to_bool(const YAML::Node& n, const std::string& file, const std::string& path) {
  if (n.IsScalar()) {
    std::string s = to_lower(n.Scalar());
    if (s == "true" || s == "yes" || s == "on" || s == "1") return true;
    if (s == "false" || s == "no" || s == "off" || s == "0") return false;
  }
  fail(n, file, path, shown(n), "expected a boolean (true or false)");
}

int64_t to_int(const YAML::Node& n, const std::string& file, const std::string& path) {
  if (n.IsScalar()) {
    const std::string& s = n.Scalar();
    try {
      size_t used = 0;
      long long v = std::stoll(s, &used, 0);
      if (used == s.size()) return v;
      // Accept integral floats written like 1e6.
      double d = std::stod(s, &used);
      if (used == s.size() && std::floor(d) == d && std::fabs(d) < 9e18) return static_cast<int64_t>(d);
    } catch (const std::exception&) {
    }
  }
  fail(n, file, path, shown(n), "expected an integer");
}

uint64_t to_uint64(const YAML::Node& n, const std::string& file, const std::string& path) {
  if (n.IsScalar()) {
    const std::string& s = n.Scalar();
    if (!s.empty() && s[0] == '-') fail(n, file, path, shown(n), "expected a non-negative integer");
    try {
      size_t used = 0;
      unsigned long long v = std::stoull(s, &used, 0);
      if (used == s.size()) return v;
      double d = std::stod(s, &used);
      if (used == s.size() && std::floor(d) == d && d >= 0 && d < 1.8e19) return static_cast<uint64_t>(d);
    } catch (const std::out_of_range&) {
      fail(n, file, path, shown(n), "out of range; allowed [0, 18446744073709551615]");
    } catch (const std::exception&) {
    }
  }
  fail(n, file, path, shown(n), "expected an integer");
}

double to_float(const YAML::Node& n, const std::string& file, const std::string& path) {
  if (n.IsScalar()) {
    const std::string& s = n.Scalar();
    try {
      size_t used = 0;
      double v = std::stod(s, &used);
      if (used == s.size() && std::isfinite(v)) return v;
    } catch (const std::exception&) {
    }
  }
  fail(n, file, path, shown(n), "expected a number");
}

std::string to_string(const YAML::Node& n, const std::string& file, const std::string& path) {
  if (n.IsScalar()) return n.Scalar();
  if (n.IsNull()) return "";
  fail(n, file, path, shown(n), "expected a string");
}

const YAML::Node& expect_sequence(const YAML::Node& n, const std::string& file, const std::string& path) {
  if (!n.IsSequence()) fail(n, file, path, shown(n), "expected a list, e.g. [a, b]");
  return n;
}

}  // namespace detail

std::string YamlValue::where(const YAML::Node& n) const { return detail::location(n, file); }

std::string FieldBase::type_name() const {
  switch (kind()) {
    case Kind::Bool: return "bool";
    case Kind::Int: return "int";
    case Kind::Float: return "float";
    case Kind::String: return is_path_ ? "path" : "string";
    case Kind::StringList: return is_path_ ? "list<path>" : "list<string>";
    case Kind::IntList: return "list<int>";
    case Kind::FloatList: return "list<float>";
    case Kind::Yaml: return "yaml";
  }
  return "?";
}

std::vector<std::string> FieldBase::choices() const {
  if (described_fn_) {
    std::vector<std::string> names;
    for (auto& c : described_fn_()) names.push_back(c.name);
    return names;
  }
  return choices_fn_ ? choices_fn_() : choices_;
}

NestedField::NestedField(std::string key, const FieldBase& inner, Reach reach)
    : FieldBase(std::move(key), inner.description()), inner_(inner), reach_(std::move(reach)) {
  lo_ = inner.lo_;
  hi_ = inner.hi_;
  choices_ = inner.choices_;
  choices_fn_ = inner.choices_fn_;
  described_fn_ = inner.described_fn_;
  is_path_ = inner.is_path_;
  path_words_ = inner.path_words_;
}

std::string FieldBase::resolve_path(const std::string& value, const std::string& base) const {
  if (!is_path_ || value.empty()) return value;
  for (const auto& w : path_words_)
    if (w == value) return value;
  std::filesystem::path p(value);
  if (p.is_absolute()) return p.lexically_normal().string();
  return (std::filesystem::path(base) / p).lexically_normal().string();
}

std::string FieldBase::allowed() const {
  auto c = choices();
  if (!c.empty()) return "one of: " + join(c, ", ");
  if (lo_ && hi_) return "[" + format_number(*lo_) + ", " + format_number(*hi_) + "]";
  if (lo_) return ">= " + format_number(*lo_);
  if (hi_) return "<= " + format_number(*hi_);
  return "";
}

void FieldBase::check_number(double v, const YAML::Node& node, const std::string& file, const std::string& path) const {
  if ((lo_ && v < *lo_) || (hi_ && v > *hi_))
    detail::fail(node, file, path, format_number(v), "out of range; allowed " + allowed());
}

void FieldBase::check_choice(const std::string& v, const YAML::Node& node, const std::string& file,
                             const std::string& path) const {
  auto c = choices();
  if (c.empty()) return;
  for (const auto& x : c)
    if (x == v) return;
  std::string msg = "not allowed; expected " + allowed();
  std::string near = nearest(v, c);
  if (!near.empty()) msg += " (did you mean '" + near + "'?)";
  detail::fail(node, file, path, "'" + v + "'", msg);
}

const FieldBase* SectionBase::find(const std::string& key) const {
  for (const auto& f : fields_)
    if (f->key() == key) return f.get();
  return nullptr;
}

}  // namespace mlsys::config
