// Feeds arbitrary bytes to the config resolver of every command. Any exception other than the
// documented ConfigError/UsageError (or a crash) is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "apps/mlsys/commands.hpp"
#include "core/config/resolve.hpp"
#include "core/util/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  for (const auto* cmd : mlsys::app::commands()) {
    try {
      mlsys::config::Resolver r(cmd->sections);
      r.apply_text(text, "fuzz.yaml");
      auto cfg = std::move(r).finish();
      (void)cfg.to_yaml_string();
    } catch (const mlsys::UsageError&) {
    }
  }
  return 0;
}
