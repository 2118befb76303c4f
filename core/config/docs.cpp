#include "core/config/docs.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace mlsys::config {

std::string default_text(const SectionBase& s, const FieldBase& f) {
  auto obj = s.make_default();
  YAML::Node n = f.to_yaml(obj.get());
  YAML::Emitter e;
  e.SetSeqFormat(YAML::Flow);
  e.SetMapFormat(YAML::Flow);
  e << n;
  std::string out = e.c_str();
  if (out.empty() || out == "~") return n.IsNull() ? "(none)" : "\"\"";
  return out;
}

std::string help_text(const std::vector<const SectionBase*>& sections) {
  std::string out;
  for (const auto* s : sections) {
    out += fmt::format("\n  [{}] {}\n", s->name(), s->description());
    size_t w = 0;
    for (const auto& f : s->fields()) w = std::max(w, s->name().size() + 1 + f->key().size());
    for (const auto& f : s->fields()) {
      std::string key = s->name() + "." + f->key();
      std::string allowed = f->allowed();
      out += fmt::format("    {:<{}}  {:<12} default {}{}\n", key, w, f->type_name(), default_text(*s, *f),
                         allowed.empty() ? "" : "; " + allowed);
      out += fmt::format("    {:<{}}  {}\n", "", w, f->description());
      for (const auto& c : f->described_choices())
        out += fmt::format("    {:<{}}    {:<14} {}\n", "", w, c.name, c.description);
    }
  }
  return out;
}

static std::string md_escape(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else out += c;
  }
  return out;
}

std::string markdown(const std::vector<const SectionBase*>& sections) {
  std::string out;
  for (const auto* s : sections) {
    out += fmt::format("### `{}` — {}\n\n", s->name(), s->description());
    out += "| key | type | default | allowed | description |\n|---|---|---|---|---|\n";
    for (const auto& f : s->fields()) {
      out += fmt::format("| `{}.{}` | {} | `{}` | {} | {} |\n", s->name(), f->key(), f->type_name(),
                         md_escape(default_text(*s, *f)), md_escape(f->allowed()), md_escape(f->description()));
    }
    out += "\n";
    // Registry-backed keys: what each choice is (its description cites the method or paper).
    for (const auto& f : s->fields()) {
      auto described = f->described_choices();
      if (described.empty()) continue;
      out += fmt::format("`{}.{}`:\n", s->name(), f->key());
      for (const auto& c : described) out += fmt::format("- `{}`: {}\n", c.name, c.description);
      out += "\n";
    }
  }
  return out;
}

}  // namespace mlsys::config
