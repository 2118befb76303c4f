#pragma once
// Typed configuration declarations. Each module declares its section next to the code that reads
// it, binding YAML keys to members of a plain options struct. The struct's own initializers are
// the defaults, so a default lives in exactly one place:
//
//   struct SimOptions { std::string policy = "fifo"; double load = 1.0; };
//   const config::Section<SimOptions>& sim_section() {
//     static const config::Section<SimOptions> s("sim", "Cluster simulator", [](auto& s) {
//       s.field("policy", &SimOptions::policy, "Scheduling policy").choices_from(policy_names);
//       s.field("load", &SimOptions::load, "Arrival-rate multiplier").range(0.01, 100);
//     });
//     return s;
//   }
//
// `--help`, `config show` and docs/CONFIG.md are all generated from these declarations.
#include <yaml-cpp/yaml.h>

#include "core/config/choice.hpp"

#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlsys::config {

// A free-form YAML subtree (e.g. a cluster topology), validated by the module that reads it.
// `file` lets that module name file:line:col in its own errors via where().
struct YamlValue {
  YAML::Node node;
  std::string file;
  std::string where(const YAML::Node& n) const;  // "file:line:col" for a node inside `node`
};

enum class Kind { Bool, Int, Float, String, StringList, IntList, FloatList, Yaml };

class FieldBase {
 public:
  FieldBase(std::string key, std::string description) : key_(std::move(key)), description_(std::move(description)) {}
  virtual ~FieldBase() = default;

  const std::string& key() const { return key_; }  // relative to its section; may contain dots
  const std::string& description() const { return description_; }
  virtual Kind kind() const = 0;
  std::string type_name() const;
  // "[lo, hi]", "one of: a, b" or "" when anything of the type is allowed.
  std::string allowed() const;
  std::vector<std::string> choices() const;
  // The choices with their descriptions; empty when the key declares names only.
  std::vector<Choice> described_choices() const { return described_fn_ ? described_fn_() : std::vector<Choice>{}; }
  // A path-typed string (or list of strings): a relative value is resolved against the folder of
  // the config file that set it (the working folder for --set), so configs run from anywhere.
  bool is_path() const { return is_path_; }
  // `value` made absolute against `base`, unless empty, already absolute or one of the key's
  // non-path words (e.g. "builtin").
  std::string resolve_path(const std::string& value, const std::string& base) const;

  // Converts and validates `node`, storing into `obj`. Throws ConfigError naming where/path.
  virtual void assign(void* obj, const YAML::Node& node, const std::string& file,
                      const std::string& path) const = 0;
  virtual YAML::Node to_yaml(const void* obj) const = 0;

 protected:
  void check_number(double v, const YAML::Node& node, const std::string& file, const std::string& path) const;
  void check_choice(const std::string& v, const YAML::Node& node, const std::string& file,
                    const std::string& path) const;

  std::string key_, description_;
  std::optional<double> lo_, hi_;
  std::vector<std::string> choices_;
  std::function<std::vector<std::string>()> choices_fn_;
  std::function<std::vector<Choice>()> described_fn_;
  bool is_path_ = false;
  std::vector<std::string> path_words_;
  template <class, class>
  friend class Field;
  friend class NestedField;
};

// Builder returned by Section::field to add bounds or choices.
template <class T, class M>
class Field final : public FieldBase {
 public:
  Field(std::string key, M T::*member, std::string description)
      : FieldBase(std::move(key), std::move(description)), member_(member) {}

  Field& range(double lo, double hi) {
    lo_ = lo;
    hi_ = hi;
    return *this;
  }
  Field& min(double lo) {
    lo_ = lo;
    return *this;
  }
  Field& choices(std::vector<std::string> c) {
    choices_ = std::move(c);
    return *this;
  }
  // For choices owned by a registry that is filled at static-initialization time.
  Field& choices_from(std::function<std::vector<std::string>()> fn) {
    choices_fn_ = std::move(fn);
    return *this;
  }
  // Choices with descriptions (a registry's entries, a command's modes), shown in --help and docs.
  Field& choices_described(std::function<std::vector<Choice>()> fn) {
    described_fn_ = std::move(fn);
    return *this;
  }
  // Marks a string (or list of strings) key as a file or folder path (see FieldBase::is_path);
  // `words` are values that are not paths and stay as written (e.g. {"builtin"}).
  Field& path(std::vector<std::string> words = {}) {
    static_assert(std::is_same_v<M, std::string> || std::is_same_v<M, std::vector<std::string>>,
                  "only string keys can be paths");
    is_path_ = true;
    path_words_ = std::move(words);
    return *this;
  }

  Kind kind() const override;
  void assign(void* obj, const YAML::Node& node, const std::string& file, const std::string& path) const override;
  YAML::Node to_yaml(const void* obj) const override;

 private:
  M T::*member_;
};

// A key of a struct nested inside a section's struct (Section<T>::nest): the inner section's field,
// reached through the outer struct's member, under a prefixed key. Bounds and choices are the
// inner field's, so a nested struct's defaults and rules are declared once, in its own file.
class NestedField final : public FieldBase {
 public:
  using Reach = std::function<void*(void*)>;
  NestedField(std::string key, const FieldBase& inner, Reach reach);
  Kind kind() const override { return inner_.kind(); }
  void assign(void* obj, const YAML::Node& node, const std::string& file, const std::string& path) const override {
    inner_.assign(reach_(obj), node, file, path);
  }
  YAML::Node to_yaml(const void* obj) const override { return inner_.to_yaml(reach_(const_cast<void*>(obj))); }

 private:
  const FieldBase& inner_;
  Reach reach_;
};

class SectionBase {
 public:
  SectionBase(std::string name, std::string description)
      : name_(std::move(name)), description_(std::move(description)) {}
  virtual ~SectionBase() = default;
  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  const std::vector<std::unique_ptr<FieldBase>>& fields() const { return fields_; }
  const FieldBase* find(const std::string& key) const;
  virtual std::shared_ptr<void> make_default() const = 0;
  // A copy of `from`, an instance of this section's struct.
  virtual std::shared_ptr<void> make_copy(const void* from) const = 0;

 protected:
  std::string name_, description_;
  std::vector<std::unique_ptr<FieldBase>> fields_;
};

template <class T>
class Section final : public SectionBase {
 public:
  template <class Declare>
  Section(std::string name, std::string description, Declare&& declare)
      : SectionBase(std::move(name), std::move(description)) {
    declare(*this);
  }
  template <class M>
  Field<T, M>& field(std::string key, M T::*member, std::string description) {
    auto f = std::make_unique<Field<T, M>>(std::move(key), member, std::move(description));
    auto* raw = f.get();
    fields_.push_back(std::move(f));
    return *raw;
  }
  // Declares every key of `sub` (a section used as a building block) under "prefix." (or unprefixed
  // when prefix is empty), stored in `member`. The nested struct keeps its own defaults and bounds.
  template <class U>
  void nest(const std::string& prefix, U T::*member, const Section<U>& sub) {
    for (const auto& f : sub.fields()) {
      std::string key = prefix.empty() ? f->key() : prefix + "." + f->key();
      fields_.push_back(std::make_unique<NestedField>(
          std::move(key), *f, [member](void* obj) -> void* { return &(static_cast<T*>(obj)->*member); }));
    }
  }
  // Declares every key of `sub` like nest(), stored wherever `reach` finds sub's struct inside T.
  // For structs that other files register at run time (a policy's tunables, sched/api/policy_params.hpp).
  void nest_reached(const std::string& prefix, const SectionBase& sub, NestedField::Reach reach) {
    for (const auto& f : sub.fields()) {
      std::string key = prefix.empty() ? f->key() : prefix + "." + f->key();
      fields_.push_back(std::make_unique<NestedField>(std::move(key), *f, reach));
    }
  }
  std::shared_ptr<void> make_default() const override { return std::make_shared<T>(); }
  std::shared_ptr<void> make_copy(const void* from) const override {
    return std::make_shared<T>(*static_cast<const T*>(from));
  }
};

// ---- conversions (declared here, defined in schema.cpp for the supported member types) ----
namespace detail {
bool to_bool(const YAML::Node& n, const std::string& file, const std::string& path);
int64_t to_int(const YAML::Node& n, const std::string& file, const std::string& path);
// The whole unsigned 64-bit range (seeds): no sign, exact above 2^53.
uint64_t to_uint64(const YAML::Node& n, const std::string& file, const std::string& path);
double to_float(const YAML::Node& n, const std::string& file, const std::string& path);
std::string to_string(const YAML::Node& n, const std::string& file, const std::string& path);
const YAML::Node& expect_sequence(const YAML::Node& n, const std::string& file, const std::string& path);
[[noreturn]] void fail(const YAML::Node& n, const std::string& file, const std::string& path, const std::string& value,
                       const std::string& what);
std::string location(const YAML::Node& n, const std::string& file);
// Shortest text that reads back as the same double (so 0.1 prints as 0.1).
std::string shortest(double v);
}  // namespace detail

template <class T, class M>
Kind Field<T, M>::kind() const {
  if constexpr (std::is_same_v<M, bool>) return Kind::Bool;
  else if constexpr (std::is_integral_v<M>) return Kind::Int;
  else if constexpr (std::is_floating_point_v<M>) return Kind::Float;
  else if constexpr (std::is_same_v<M, std::string>) return Kind::String;
  else if constexpr (std::is_same_v<M, std::vector<std::string>>) return Kind::StringList;
  else if constexpr (std::is_same_v<M, std::vector<double>>) return Kind::FloatList;
  else if constexpr (std::is_same_v<M, std::vector<int64_t>> || std::is_same_v<M, std::vector<int>>) return Kind::IntList;
  else if constexpr (std::is_same_v<M, YamlValue>) return Kind::Yaml;
  else static_assert(sizeof(M) == 0, "unsupported config member type");
}

template <class T, class M>
void Field<T, M>::assign(void* obj, const YAML::Node& node, const std::string& file, const std::string& path) const {
  M& dst = static_cast<T*>(obj)->*member_;
  if constexpr (std::is_same_v<M, bool>) {
    dst = detail::to_bool(node, file, path);
  } else if constexpr (std::is_integral_v<M> && std::is_unsigned_v<M> && sizeof(M) == 8) {
    uint64_t v = detail::to_uint64(node, file, path);
    check_number(static_cast<double>(v), node, file, path);
    dst = static_cast<M>(v);
  } else if constexpr (std::is_integral_v<M>) {
    int64_t v = detail::to_int(node, file, path);
    check_number(static_cast<double>(v), node, file, path);
    if (v < static_cast<int64_t>(std::numeric_limits<M>::lowest()) ||
        (v > 0 && static_cast<uint64_t>(v) > static_cast<uint64_t>(std::numeric_limits<M>::max())))
      detail::fail(node, file, path, std::to_string(v), "out of range for this field");
    dst = static_cast<M>(v);
  } else if constexpr (std::is_floating_point_v<M>) {
    double v = detail::to_float(node, file, path);
    check_number(v, node, file, path);
    dst = static_cast<M>(v);
  } else if constexpr (std::is_same_v<M, std::string>) {
    std::string v = detail::to_string(node, file, path);
    check_choice(v, node, file, path);
    dst = v;
  } else if constexpr (std::is_same_v<M, std::vector<std::string>>) {
    M out;
    for (const auto& item : detail::expect_sequence(node, file, path)) {
      std::string v = detail::to_string(item, file, path);
      check_choice(v, item, file, path);
      out.push_back(v);
    }
    dst = std::move(out);
  } else if constexpr (std::is_same_v<M, std::vector<double>>) {
    M out;
    for (const auto& item : detail::expect_sequence(node, file, path)) {
      double v = detail::to_float(item, file, path);
      check_number(v, item, file, path);
      out.push_back(v);
    }
    dst = std::move(out);
  } else if constexpr (std::is_same_v<M, std::vector<int64_t>> || std::is_same_v<M, std::vector<int>>) {
    M out;
    for (const auto& item : detail::expect_sequence(node, file, path)) {
      int64_t v = detail::to_int(item, file, path);
      check_number(static_cast<double>(v), item, file, path);
      out.push_back(static_cast<typename M::value_type>(v));
    }
    dst = std::move(out);
  } else if constexpr (std::is_same_v<M, YamlValue>) {
    dst = YamlValue{node, file};  // not a clone: clones lose the marks that errors cite
  }
}

template <class T, class M>
YAML::Node Field<T, M>::to_yaml(const void* obj) const {
  const M& v = static_cast<const T*>(obj)->*member_;
  if constexpr (std::is_same_v<M, YamlValue>) {
    return v.node ? YAML::Clone(v.node) : YAML::Node(YAML::NodeType::Null);
  } else if constexpr (std::is_floating_point_v<M>) {
    return YAML::Node(detail::shortest(static_cast<double>(v)));
  } else if constexpr (std::is_same_v<M, std::vector<double>>) {
    YAML::Node seq(YAML::NodeType::Sequence);
    for (double x : v) seq.push_back(detail::shortest(x));
    return seq;
  } else if constexpr (std::is_same_v<M, std::vector<std::string>> ||
                       std::is_same_v<M, std::vector<int64_t>> || std::is_same_v<M, std::vector<int>>) {
    YAML::Node seq(YAML::NodeType::Sequence);
    for (const auto& x : v) seq.push_back(x);
    return seq;
  } else {
    return YAML::Node(v);
  }
}

}  // namespace mlsys::config
