#pragma once
// Registry<Interface>: components register a factory by name with a one-line description, in the
// file that implements them:
//
//   static const bool registered = policy_registry().add("fifo", "First in, first out", [] {
//     return std::make_unique<Fifo>();
//   });
//
// Each registry is reached through one non-inline accessor (e.g. `PolicyRegistry& policy_registry()`)
// defined in a .cpp, so there is exactly one instance across shared libraries.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/config/choice.hpp"
#include "core/util/error.hpp"
#include "core/util/strings.hpp"

namespace mlsys {

template <class Interface, class... Args>
class Registry {
 public:
  using Factory = std::function<std::unique_ptr<Interface>(Args...)>;
  struct Entry {
    std::string name;
    std::string description;
    Factory factory;
  };

  // `kind` names what is registered ("scheduling policy") in error messages.
  explicit Registry(std::string kind) : kind_(std::move(kind)) {}

  bool add(std::string name, std::string description, Factory factory) {
    if (entries_.count(name)) throw std::logic_error(kind_ + " '" + name + "' registered twice");
    entries_[name] = Entry{name, std::move(description), std::move(factory)};
    return true;
  }

  bool contains(const std::string& name) const { return entries_.count(name) != 0; }

  const Entry& entry(const std::string& name) const {
    auto it = entries_.find(name);
    if (it == entries_.end()) throw ConfigError(unknown_message(name));
    return it->second;
  }

  std::unique_ptr<Interface> create(const std::string& name, Args... args) const {
    return entry(name).factory(std::forward<Args>(args)...);
  }

  // Sorted by name, so listings and docs are stable.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (auto& [n, e] : entries_) out.push_back(n);
    return out;
  }
  std::vector<const Entry*> entries() const {
    std::vector<const Entry*> out;
    for (auto& [n, e] : entries_) out.push_back(&e);
    return out;
  }
  // Names with descriptions, for a config key's choices (`choices_described`): what users read.
  std::vector<config::Choice> choices() const {
    std::vector<config::Choice> out;
    for (auto& [n, e] : entries_) out.push_back({n, e.description});
    return out;
  }
  const std::string& kind() const { return kind_; }

  std::string unknown_message(const std::string& name) const {
    std::string msg = "unknown " + kind_ + " '" + name + "'";
    std::string near = nearest(name, names());
    if (!near.empty()) msg += " (did you mean '" + near + "'?)";
    msg += "; valid: " + join(names(), ", ");
    return msg;
  }

 private:
  std::string kind_;
  std::map<std::string, Entry> entries_;
};

}  // namespace mlsys
