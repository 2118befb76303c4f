// Uses installed mlsys headers and libraries: the config resolver with the shared run section,
// JSON with exact 64-bit integers, content hashes, and the simulate command's declarations.
#include <cstdio>

#include "core/config/resolve.hpp"
#include "core/runtime/run_options.hpp"
#include "core/io/hash.hpp"
#include "core/util/json.hpp"
#include "sim/command.hpp"

int main() {
  auto cfg = mlsys::config::resolve({&mlsys::run_section()}, {}, {"run.seed=18446744073709551615"});
  mlsys::Json j = mlsys::Json::object();
  j["seed"] = cfg.get(mlsys::run_section()).seed;
  const auto& sim = mlsys::sim::simulate_command();
  std::printf("consumer: %s %s modes=%zu hash=%s\n", sim.name.c_str(), j.dump().c_str(), sim.modes.size(),
              mlsys::content_hash("mlsys").c_str());
  return j.dump() == "{\"seed\":18446744073709551615}" && sim.name == "simulate" ? 0 : 1;
}
