#include "core/config/resolve.hpp"

#include <algorithm>
#include <filesystem>

#include "core/config/expand.hpp"
#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "core/util/strings.hpp"

namespace mlsys::config {

namespace fs = std::filesystem;

Resolver::Resolver(std::vector<const SectionBase*> sections) {
  cfg_.sections_ = std::move(sections);
  for (const auto* s : cfg_.sections_) cfg_.objects_[s->name()] = s->make_default();
}

std::vector<std::string> Resolver::all_keys() const {
  std::vector<std::string> keys;
  for (const auto* s : cfg_.sections_)
    for (const auto& f : s->fields()) keys.push_back(s->name() + "." + f->key());
  return keys;
}

void Resolver::unknown_key(const std::string& path, const YAML::Node& key_node, const std::string& file) const {
  std::string msg = detail::location(key_node, file) + ": unknown key '" + path + "'";
  std::string near = nearest(path, all_keys());
  if (near.empty()) {
    // Try a suggestion on the last component alone (a key put in the wrong section).
    auto dot = path.rfind('.');
    if (dot != std::string::npos) near = nearest(path.substr(dot + 1), all_keys());
  }
  if (!near.empty()) msg += " (did you mean '" + near + "'?)";
  else {
    std::vector<std::string> names;
    for (const auto* s : cfg_.sections_) names.push_back(s->name());
    msg += "; this command's sections are: " + join(names, ", ");
  }
  throw ConfigError(msg);
}

// ${VAR} references are expanded and path-typed values made absolute against `base` (the config
// file's folder, or the working folder for --set) before the field converts the value.
static void prepare_value(const FieldBase& f, YAML::Node value, const std::string& file, const std::string& path,
                          const std::string& base) {
  expand_env_in(value, file, path);
  if (!f.is_path()) return;
  if (value.IsScalar()) {
    value = f.resolve_path(value.Scalar(), base);
  } else if (value.IsSequence()) {
    for (size_t i = 0; i < value.size(); ++i)
      if (value[i].IsScalar()) value[i] = f.resolve_path(value[i].Scalar(), base);
  }
}

static std::string folder_of(const std::string& file) {
  std::error_code ec;
  return fs::absolute(fs::path(file), ec).parent_path().lexically_normal().string();
}

// True when a scalar at or below `node` names an environment variable (${...}).
static bool mentions_env(const YAML::Node& node) {
  if (node.IsScalar()) return node.Scalar().find("${") != std::string::npos;
  if (node.IsSequence() || node.IsMap())
    for (auto it = node.begin(); it != node.end(); ++it)
      if (mentions_env(node.IsMap() ? it->second : *it)) return true;
  return false;
}

void Resolver::assign(const Assignment& a) {
  try {
    prepare_value(*a.field, a.value, a.file, a.path, a.base);
    a.field->assign(cfg_.objects_.at(a.section).get(), a.value, a.file, a.path);
  } catch (const ConfigError& e) {
    if (!a.from_set) throw;
    // Replace the meaningless line:col of --set's one-line document.
    std::string msg = e.what();
    auto colon = msg.find(": " + a.path);
    throw ConfigError(a.file + (colon == std::string::npos ? ": " + msg : msg.substr(colon)));
  }
}

// A value that names a variable is expanded only if it is still the key's value at the end: a
// later file or --set that replaces it must not need the variable it named.
void Resolver::offer(Assignment a) {
  if (mentions_env(a.value)) {
    pending_[a.path] = std::move(a);
    return;
  }
  pending_.erase(a.path);
  assign(a);
}

void Resolver::set_path(const std::string& path, const YAML::Node& value, const std::string& file,
                        const YAML::Node& key_node) {
  auto dot = path.find('.');
  std::string section = dot == std::string::npos ? path : path.substr(0, dot);
  std::string key = dot == std::string::npos ? "" : path.substr(dot + 1);
  for (const auto* s : cfg_.sections_) {
    if (s->name() != section) continue;
    if (const FieldBase* f = s->find(key)) {
      offer({f, section, value, file, path, folder_of(file), false});
      cfg_.origins_[path] = detail::location(value, file);
      return;
    }
  }
  unknown_key(path, key_node, file);
}

// A path that names a field is assigned; a path that is a proper prefix of field paths is
// descended into (it must then be a map); anything else is an unknown key.
void Resolver::walk(const YAML::Node& node, const std::string& prefix, const std::string& file) {
  for (auto it = node.begin(); it != node.end(); ++it) {
    const YAML::Node k = it->first;  // copies: the iterator yields a temporary pair
    const YAML::Node v = it->second;
    if (!k.IsScalar()) throw ConfigError(detail::location(k, file) + ": keys must be plain names");
    std::string path = prefix.empty() ? k.Scalar() : prefix + "." + k.Scalar();
    if (prefix.empty() && path == "include") continue;  // handled by apply_node
    bool is_field = false, is_prefix = false;
    for (const auto& key : all_keys()) {
      if (key == path) is_field = true;
      else if (starts_with(key, path + ".")) is_prefix = true;
    }
    if (is_field) {
      set_path(path, v, file, k);
    } else if (is_prefix) {
      if (v.IsNull()) continue;  // an empty section ("sim:") changes nothing
      if (!v.IsMap())
        throw ConfigError(detail::location(v, file) + ": " + path + " must be a map of keys (see `mlsys <command> --help`)");
      walk(v, path, file);
    } else {
      unknown_key(path, k, file);
    }
  }
}

// YAML keeps both entries of a repeated key and a reader would silently take one of them: a
// repeated key anywhere in a document is an error naming both lines.
static void refuse_duplicate_keys(const YAML::Node& node, const std::string& file, const std::string& prefix) {
  if (node.IsSequence()) {
    for (size_t i = 0; i < node.size(); ++i) refuse_duplicate_keys(node[i], file, prefix + "[" + std::to_string(i) + "]");
    return;
  }
  if (!node.IsMap()) return;
  std::map<std::string, YAML::Mark> seen;
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (!it->first.IsScalar()) continue;
    const std::string& key = it->first.Scalar();
    std::string path = prefix.empty() ? key : prefix + "." + key;
    auto [at, fresh] = seen.emplace(key, it->first.Mark());
    if (!fresh)
      throw ConfigError(detail::location(it->first, file) + ": duplicate key '" + path + "' (also at line " +
                        std::to_string(at->second.line + 1) + "); keep one of them");
    refuse_duplicate_keys(it->second, file, path);
  }
}

void Resolver::apply_node(const YAML::Node& root, const std::string& file, std::vector<std::string>& stack) {
  if (!root || root.IsNull()) return;  // empty file
  refuse_duplicate_keys(root, file, "");
  if (!root.IsMap()) throw ConfigError(detail::location(root, file) + ": a config file must be a map of sections");
  if (auto inc = root["include"]) {
    std::vector<YAML::Node> items;
    if (inc.IsScalar()) items.push_back(inc);
    else if (inc.IsSequence())
      for (const auto& i : inc) items.push_back(i);
    else throw ConfigError(detail::location(inc, file) + ": include must be a file name or a list of them");
    for (const auto& i : items) {
      if (!i.IsScalar()) throw ConfigError(detail::location(i, file) + ": include entries must be file names");
      fs::path p = fs::path(file).parent_path() / expand_env(i.Scalar(), detail::location(i, file) + ": include");
      std::string ps = p.lexically_normal().string();
      if (std::find(stack.begin(), stack.end(), ps) != stack.end())
        throw ConfigError(detail::location(i, file) + ": include cycle through " + ps);
      std::error_code ec;  // a name the file system refuses (too long, ...) is "not found", not a crash
      if (!fs::is_regular_file(p, ec))
        throw ConfigError(detail::location(i, file) + ": included file not found: " + ps +
                          (ec && ec != std::errc::no_such_file_or_directory ? " (" + ec.message() + ")" : ""));
      stack.push_back(ps);
      YAML::Node sub;
      try {
        sub = YAML::Load(read_file(p));
      } catch (const YAML::Exception& e) {
        throw ConfigError(ps + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                          ": malformed YAML: " + e.msg);
      }
      apply_node(sub, ps, stack);
      stack.pop_back();
    }
  }
  walk(root, "", file);
}

void Resolver::apply_text(const std::string& text, const std::string& name) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw ConfigError(name + ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) +
                      ": malformed YAML: " + e.msg);
  }
  std::vector<std::string> stack{name};
  apply_node(root, name, stack);
}

void Resolver::apply_file(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw ConfigError("config path is a folder, not a YAML file: " + path);
  if (!fs::exists(path, ec))
    throw ConfigError("config file not found: " + path +
                      (ec && ec != std::errc::no_such_file_or_directory ? " (" + ec.message() + ")" : ""));
  apply_text(read_file(path), path);
}

void Resolver::apply_set(const std::string& assignment) {
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set " + assignment + ": expected key.path=value, e.g. --set run.seed=3");
  std::string path(trim(assignment.substr(0, eq)));
  std::string text = assignment.substr(eq + 1);
  YAML::Node value;
  try {
    value = YAML::Load(text.empty() ? "\"\"" : text);
  } catch (const YAML::Exception& e) {
    throw ConfigError("--set " + assignment + ": value is not valid YAML: " + e.msg);
  }
  std::string where = "--set " + path;
  bool known = false;
  for (const auto& k : all_keys()) known = known || k == path;
  if (!known) {
    std::string msg = "--set: unknown key '" + path + "'";
    std::string near = nearest(path, all_keys());
    if (!near.empty()) msg += " (did you mean '" + near + "'?)";
    throw ConfigError(msg);
  }
  // Values from --set have no file position; report them as "--set key".
  auto dot = path.find('.');
  for (const auto* s : cfg_.sections_) {
    if (s->name() != path.substr(0, dot)) continue;
    std::error_code ec;
    offer({s->find(path.substr(dot + 1)), s->name(), value, where, path, fs::current_path(ec).string(), true});
    cfg_.origins_[path] = where;
  }
}

ResolvedConfig Resolver::finish() && {
  for (const auto& [path, a] : pending_) assign(a);
  pending_.clear();
  return std::move(cfg_);
}

std::string ResolvedConfig::scalar(const std::string& path) const {
  auto dot = path.find('.');
  for (const auto* s : sections_) {
    if (dot == std::string::npos || s->name() != path.substr(0, dot)) continue;
    if (const FieldBase* f = s->find(path.substr(dot + 1))) {
      YAML::Node n = f->to_yaml(objects_.at(s->name()).get());
      if (n.IsScalar()) return n.Scalar();
    }
  }
  throw std::logic_error("config key '" + path + "' is not a declared scalar");
}

std::vector<std::string> ResolvedConfig::path_values() const {
  std::vector<std::string> out;
  for (const auto* s : sections_)
    for (const auto& f : s->fields()) {
      if (!f->is_path()) continue;
      YAML::Node n = f->to_yaml(objects_.at(s->name()).get());
      if (n.IsScalar() && !n.Scalar().empty()) out.push_back(n.Scalar());
      if (n.IsSequence())
        for (const auto& item : n)
          if (item.IsScalar() && !item.Scalar().empty()) out.push_back(item.Scalar());
    }
  return out;
}

YAML::Node ResolvedConfig::to_yaml() const {
  YAML::Node root(YAML::NodeType::Map);
  for (const auto* s : sections_) {
    YAML::Node sec(YAML::NodeType::Map);
    const void* obj = objects_.at(s->name()).get();
    for (const auto& f : s->fields()) {
      auto parts = split(f->key(), '.');
      // Build nested maps for dotted keys.
      std::vector<YAML::Node> chain{sec};
      for (size_t i = 0; i + 1 < parts.size(); ++i) {
        YAML::Node child = chain.back()[parts[i]];
        if (!child.IsMap()) child = YAML::Node(YAML::NodeType::Map);
        chain.back()[parts[i]] = child;
        chain.push_back(chain.back()[parts[i]]);
      }
      chain.back()[parts.back()] = f->to_yaml(obj);
    }
    root[s->name()] = sec;
  }
  return root;
}

// Resolved text holds no ${...} any more; a literal "${" in a value is written as "$${" so the
// printed config reads back to the same values.
static void escape_references(YAML::Node node) {
  if (node.IsScalar()) {
    if (node.Scalar().find("${") != std::string::npos) node = escape_env(node.Scalar());
  } else if (node.IsSequence() || node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it) escape_references(node.IsMap() ? it->second : *it);
  }
}

std::string ResolvedConfig::to_yaml_string() const { return yaml_text(to_yaml()); }

std::string yaml_text(YAML::Node root) {
  escape_references(root);
  YAML::Emitter out;
  out.SetFloatPrecision(17);
  out.SetDoublePrecision(17);
  out << root;
  return std::string(out.c_str()) + "\n";
}

ResolvedConfig resolve(const std::vector<const SectionBase*>& sections, const std::vector<std::string>& files,
                       const std::vector<std::string>& sets) {
  Resolver r(sections);
  for (const auto& f : files) r.apply_file(f);
  for (const auto& s : sets) r.apply_set(s);
  return std::move(r).finish();
}

}  // namespace mlsys::config
