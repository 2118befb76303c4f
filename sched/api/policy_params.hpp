#pragma once
// The policies' tunables. A policy that has any declares them in its own file: a struct whose
// initializers are the defaults and a config::Section binding its keys, registered with
// `add_policy_tunables(section)`. Every registered key then appears, unprefixed, in the `sim:`
// section (docs/CONFIG.md, --help), and the policy's factory reads its struct with
// `params.get(its_section())`. Adding a policy with a tunable touches only the policy's file.
#include <map>
#include <memory>
#include <string>

#include "core/config/schema.hpp"

namespace mlsys::sched {

// One instance of every registered tunables struct (the defaults until something sets them).
// Copies are deep: each configuration of a comparison owns its values.
class PolicyParams {
 public:
  PolicyParams() = default;
  PolicyParams(const PolicyParams& other);
  PolicyParams& operator=(const PolicyParams& other);
  PolicyParams(PolicyParams&&) noexcept = default;
  PolicyParams& operator=(PolicyParams&&) noexcept = default;

  template <class T>
  const T& get(const config::Section<T>& s) const {
    return *static_cast<const T*>(slot(s));
  }
  template <class T>
  T& get(const config::Section<T>& s) {
    return *static_cast<T*>(slot(s));
  }
  // Sets one key from YAML text, with the key's type and bounds: set("las_round_s", "120"),
  // set("las_thresholds", "[100, 1000]"). Throws ConfigError for an unknown key or a bad value.
  void set(const std::string& key, const std::string& yaml_value);

  // The instance for `s`, made from its defaults on first use (values_ is a cache of those).
  void* slot(const config::SectionBase& s) const;

 private:
  mutable std::map<const config::SectionBase*, std::shared_ptr<void>> values_;
};

// Registers a policy's tunables section; returns true, for `static const bool registered = ...`.
// Must run at static initialization (in the policy's file), before the sim section is first built.
bool add_policy_tunables(const config::SectionBase& section);

// Every registered tunables key, grouped by section; groups sorted by their first key so the
// listing is stable whatever order the files were linked in.
const config::Section<PolicyParams>& policy_params_section();

}  // namespace mlsys::sched
