#include "sched/api/policy_params.hpp"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "core/util/error.hpp"

namespace mlsys::sched {
namespace {

struct TunablesTable {
  std::vector<const config::SectionBase*> sections;
  bool built = false;  // policy_params_section() has read the table; later additions would be lost
};

TunablesTable& tunables_table() {
  static TunablesTable t;
  return t;
}

}  // namespace

PolicyParams::PolicyParams(const PolicyParams& other) { *this = other; }

PolicyParams& PolicyParams::operator=(const PolicyParams& other) {
  if (this == &other) return *this;
  values_.clear();
  for (const auto& [section, value] : other.values_) values_[section] = section->make_copy(value.get());
  return *this;
}

void* PolicyParams::slot(const config::SectionBase& s) const {
  auto& v = values_[&s];
  if (!v) v = s.make_default();
  return v.get();
}

void PolicyParams::set(const std::string& key, const std::string& yaml_value) {
  const config::FieldBase* f = policy_params_section().find(key);
  if (!f) throw ConfigError("no policy tunable '" + key + "'");
  f->assign(this, YAML::Load(yaml_value), "<set>", key);
}

bool add_policy_tunables(const config::SectionBase& section) {
  auto& t = tunables_table();
  if (t.built)
    throw std::logic_error("policy tunables '" + section.name() + "' registered after the sim section was built");
  t.sections.push_back(&section);
  return true;
}

const config::Section<PolicyParams>& policy_params_section() {
  static const config::Section<PolicyParams> s("policy", "Tunables of the scheduling policies", [](auto& s) {
    auto& t = tunables_table();
    t.built = true;
    auto sections = t.sections;
    auto first_key = [](const config::SectionBase* sec) { return sec->fields().empty() ? std::string() : sec->fields().front()->key(); };
    std::sort(sections.begin(), sections.end(), [&](auto* a, auto* b) { return first_key(a) < first_key(b); });
    for (const config::SectionBase* sec : sections)
      s.nest_reached("", *sec, [sec](void* obj) { return static_cast<PolicyParams*>(obj)->slot(*sec); });
  });
  return s;
}

}  // namespace mlsys::sched
