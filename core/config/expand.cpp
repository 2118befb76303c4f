#include "core/config/expand.hpp"

#include <cctype>
#include <cstdlib>
#include <filesystem>

#include "core/config/schema.hpp"
#include "core/util/error.hpp"

namespace mlsys::config {

namespace {

bool name_char(char c, bool first) {
  return c == '_' || std::isalpha(static_cast<unsigned char>(c)) || (!first && std::isdigit(static_cast<unsigned char>(c)));
}

// Index of the '}' closing the reference whose body starts at `from`, honouring nested ${...}.
size_t closing_brace(std::string_view s, size_t from) {
  int depth = 1;
  for (size_t i = from; i < s.size(); ++i) {
    if (s[i] == '$' && i + 1 < s.size() && s[i + 1] == '{') {
      ++depth;
      ++i;
    } else if (s[i] == '}' && --depth == 0) {
      return i;
    }
  }
  return std::string_view::npos;
}

// "../data", "./x", "data/graphs": a path relative to the working folder. A plain word ("alice")
// or an absolute path is left as it is.
bool is_relative_path(const char* value) {
  std::string_view v(value);
  if (v.empty() || v.front() == '/') return false;
  return v.front() == '.' || v.find('/') != std::string_view::npos;
}

}  // namespace

std::string expand_env(std::string_view s, const std::string& where) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '$') {
      out += s[i];
      continue;
    }
    if (s.substr(i, 3) == "$${") {
      out += "${";
      i += 2;
      continue;
    }
    if (i + 1 >= s.size() || s[i + 1] != '{') {
      out += '$';
      continue;
    }
    size_t end = closing_brace(s, i + 2);
    if (end == std::string_view::npos)
      throw ConfigError(where + ": unterminated ${ in '" + std::string(s) + "' (write $${ for a literal ${)");
    std::string_view body = s.substr(i + 2, end - i - 2);
    size_t n = 0;
    while (n < body.size() && name_char(body[n], n == 0)) ++n;
    std::string name(body.substr(0, n));
    std::string_view rest = body.substr(n);
    bool has_default = rest.substr(0, 2) == ":-";
    if (name.empty() || (!rest.empty() && !has_default))
      throw ConfigError(where + ": '${" + std::string(body) +
                        "}' is not a variable reference; use ${NAME} or ${NAME:-default}");
    const char* value = std::getenv(name.c_str());
    if (has_default && (value == nullptr || *value == '\0')) {
      out += expand_env(rest.substr(2), where);
    } else if (value == nullptr) {
      throw ConfigError(where + ": environment variable " + name + " is not set (used as ${" + name +
                        "}); set it, e.g. `export " + name + "=...`, or write ${" + name + ":-default}");
    } else if (i == 0 && is_relative_path(value)) {
      out += std::filesystem::absolute(value).lexically_normal().string();
    } else {
      out += value;
    }
    i = end;
  }
  return out;
}

void expand_env_in(YAML::Node node, const std::string& file, const std::string& path) {
  if (!node) return;
  if (node.IsScalar()) {
    const std::string& text = node.Scalar();
    if (text.find('$') == std::string::npos) return;
    std::string expanded = expand_env(text, detail::location(node, file) + ": " + path);
    if (expanded != text) node = expanded;  // assigning a scalar keeps the node's mark
  } else if (node.IsSequence()) {
    for (size_t i = 0; i < node.size(); ++i) expand_env_in(node[i], file, path + "[" + std::to_string(i) + "]");
  } else if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      YAML::Node v = it->second;
      expand_env_in(v, file, path + "." + (it->first.IsScalar() ? it->first.Scalar() : std::string("?")));
    }
  }
}

std::string escape_env(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '$' && i + 1 < s.size() && s[i + 1] == '{') out += '$';
    out += s[i];
  }
  return out;
}

}  // namespace mlsys::config
