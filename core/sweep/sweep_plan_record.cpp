#include "core/sweep/sweep_plan_record.hpp"

#include <vector>

#include "core/runtime/run_options.hpp"
#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "core/io/hash.hpp"

namespace mlsys {

namespace fs = std::filesystem;

std::string sweep_config_text(const config::ResolvedConfig& cfg) {
  YAML::Node root = cfg.to_yaml();
  const RunOptions defaults;
  if (root["run"])
    for (const char* key : {"out_dir", "overwrite", "threads", "log_level", "progress"})
      root["run"][key] = run_section().find(key)->to_yaml(&defaults);
  return config::yaml_text(root);
}

bool InputDigests::unchanged(const Json& inputs) {
  if (!inputs.is_object()) return true;
  for (const auto& [key, input] : inputs.as_object()) {
    const Json* hash = input.find(kContentHashName);
    const Json* path = input.find("path");
    if (!hash || !path) continue;  // builtin: the config says what it is
    auto [it, fresh] = hashes_.try_emplace(path->as_string());
    if (fresh) {
      try {
        it->second = digest_path(path->as_string()).hash;
      } catch (const Error&) {
        it->second.clear();  // gone or unreadable: not the input the run read
      }
    }
    if (it->second != hash->as_string()) return false;
  }
  return true;
}

std::string sweep_plan_change(const fs::path& folder, const std::string& config_hash, InputDigests& inputs) {
  if (config_hash.empty()) throw Error("sweep: configuration without a config fingerprint (resolve the plan first)");
  std::error_code ec;
  if (!fs::is_regular_file(folder / kSweepPlanFile, ec)) return "no recorded plan";
  try {
    const Json record = Json::parse(read_file(folder / kSweepPlanFile));
    const Json* config = record.find("config");
    const Json* recorded = config ? config->find(kContentHashName) : nullptr;
    const Json* used = record.find("inputs");
    std::vector<std::string> why;
    if (!recorded || !recorded->is_string() || recorded->as_string() != config_hash) why.emplace_back("config");
    if (!used || !inputs.unchanged(*used)) why.emplace_back("inputs");
    return why.empty() ? "" : why.size() == 1 ? why[0] : why[0] + ", " + why[1];
  } catch (const Error&) {
    return "no recorded plan";  // unreadable or not a record this code wrote: vouches for nothing
  }
}

void record_sweep_plan(const fs::path& folder, const std::string& config_hash) {
  std::error_code ec;
  if (!fs::is_regular_file(folder / "summary.json", ec)) return;
  Json summary;
  try {
    summary = Json::parse(read_file(folder / "summary.json"));
  } catch (const Error& e) {
    throw InputError((folder / "summary.json").string() + ": " + e.what() + "; the run's record is damaged: delete " +
                     folder.string() + " and run the sweep again to redo that configuration");
  }
  const Json* run = summary.find("run");
  const Json* inputs = run ? run->find("inputs") : nullptr;
  Json record = Json::object();
  record["config"] = Json::object();
  record["config"][kContentHashName] = config_hash;
  record["inputs"] = inputs ? *inputs : Json::object();
  write_file_atomic(folder / kSweepPlanFile, record.dump(2) + "\n");
}

void forget_sweep_plan(const fs::path& folder) {
  std::error_code ec;
  fs::remove(folder / kSweepPlanFile, ec);
}

}  // namespace mlsys
