// libFuzzer target for the YAML config loader: arbitrary bytes go through the resolver with the
// common sections (run, comm, device) plus a section holding every field kind. Anything other
// than a ConfigError/UsageError (an unexpected exception type, a crash, a hang) is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/comm/comm_options.hpp"
#include "core/config/resolve.hpp"
#include "core/runtime/run_options.hpp"
#include "core/tensor/device_options.hpp"
#include "core/util/error.hpp"

namespace {

struct AllKinds {
  bool flag = false;
  int small = 1;
  int64_t big = 2;
  uint64_t unsigned_big = 3;
  double ratio = 0.5;
  std::string choice = "a";
  std::vector<std::string> names;
  std::vector<int64_t> counts;
  std::vector<double> weights;
  std::string nested_leaf;
  mlsys::config::YamlValue free_form;
};

const mlsys::config::Section<AllKinds>& all_kinds() {
  static const mlsys::config::Section<AllKinds> s("fuzz", "every field kind", [](auto& s) {
    s.field("flag", &AllKinds::flag, "bool");
    s.field("small", &AllKinds::small, "int").range(-5, 5);
    s.field("big", &AllKinds::big, "int64");
    s.field("unsigned_big", &AllKinds::unsigned_big, "uint64").min(0);
    s.field("ratio", &AllKinds::ratio, "float").range(0, 1);
    s.field("choice", &AllKinds::choice, "choice").choices({"a", "bb", "ccc"});
    s.field("names", &AllKinds::names, "list of strings");
    s.field("counts", &AllKinds::counts, "list of ints").range(0, 100);
    s.field("weights", &AllKinds::weights, "list of floats");
    s.field("nested.deeper.leaf", &AllKinds::nested_leaf, "nested key");
    s.field("free_form", &AllKinds::free_form, "yaml");
  });
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  try {
    mlsys::config::Resolver r({&mlsys::run_section(), &mlsys::comm_section(), &mlsys::device_section(), &all_kinds()});
    r.apply_text(text, "fuzz.yaml");
    auto cfg = std::move(r).finish();
    std::string shown = cfg.to_yaml_string();
    // What config show prints must load again.
    mlsys::config::Resolver again({&mlsys::run_section(), &mlsys::comm_section(), &mlsys::device_section(), &all_kinds()});
    again.apply_text(shown, "shown.yaml");
  } catch (const mlsys::UsageError&) {
  }
  return 0;
}
