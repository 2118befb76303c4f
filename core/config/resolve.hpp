#pragma once
// Resolves a command's configuration with one precedence:
//   built-in defaults < YAML files in the order given (each may `include:` base files) < --set a.b=c
// Lists and maps (yaml fields) are replaced whole, never merged.
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/config/schema.hpp"

namespace mlsys::config {

class ResolvedConfig {
 public:
  template <class T>
  const T& get(const Section<T>& s) const {
    return *static_cast<const T*>(objects_.at(s.name()).get());
  }
  template <class T>
  T& mutable_get(const Section<T>& s) {
    return *static_cast<T*>(objects_.at(s.name()).get());
  }
  // The resolved value of a scalar key ("sim.mode") as text; throws for an unknown key.
  std::string scalar(const std::string& path) const;
  // The fully resolved config, every key of every section, in declaration order.
  YAML::Node to_yaml() const;
  std::string to_yaml_string() const;
  // Where each explicitly set key came from ("file:line:col" or "--set"); defaults are absent.
  const std::map<std::string, std::string>& origins() const { return origins_; }
  const std::vector<const SectionBase*>& sections() const { return sections_; }
  // The values of every path-typed key that is set (lists flattened), e.g. to keep a run from
  // deleting an input that lives inside its own folder.
  std::vector<std::string> path_values() const;

 private:
  friend class Resolver;
  std::vector<const SectionBase*> sections_;
  std::map<std::string, std::shared_ptr<void>> objects_;
  std::map<std::string, std::string> origins_;
};

class Resolver {
 public:
  explicit Resolver(std::vector<const SectionBase*> sections);
  // Applies a YAML file (and its includes). Throws ConfigError naming file:line:col.
  void apply_file(const std::string& path);
  // Applies YAML text (for tests and --set of whole documents); `name` is used in messages.
  void apply_text(const std::string& text, const std::string& name);
  // Applies "a.b=value"; value is parsed as YAML (so "[1, 2]" is a list).
  void apply_set(const std::string& assignment);
  // The resolved config. A value naming ${VAR} is expanded here, and only when it is the key's
  // final value (one a later file or --set replaced never needs its variables).
  ResolvedConfig finish() &&;
  // Every valid key path, for suggestions and docs.
  std::vector<std::string> all_keys() const;

 private:
  void apply_node(const YAML::Node& root, const std::string& file, std::vector<std::string>& include_stack);
  void walk(const YAML::Node& node, const std::string& prefix, const std::string& file);
  void set_path(const std::string& path, const YAML::Node& value, const std::string& file, const YAML::Node& key_node);
  [[noreturn]] void unknown_key(const std::string& path, const YAML::Node& key_node, const std::string& file) const;
  // One value given for one key, by a file (file = its name) or --set (file = "--set key").
  struct Assignment {
    const FieldBase* field;
    std::string section;
    YAML::Node value;
    std::string file, path;
    std::string base;  // the folder relative paths are taken against
    bool from_set;
  };
  void offer(Assignment a);
  void assign(const Assignment& a);
  ResolvedConfig cfg_;
  // Values naming ${VAR}s, by key: expanded in finish() only if no later value replaced them.
  std::map<std::string, Assignment> pending_;
  std::vector<std::string> include_stack_;
};

// YAML text of a config tree (a to_yaml() result, possibly edited), as to_yaml_string writes it.
std::string yaml_text(YAML::Node root);

// Convenience: resolve files then sets.
ResolvedConfig resolve(const std::vector<const SectionBase*>& sections, const std::vector<std::string>& files,
                       const std::vector<std::string>& sets);

}  // namespace mlsys::config
