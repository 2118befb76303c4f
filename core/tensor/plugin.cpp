#include "core/tensor/plugin.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <system_error>

#include "core/util/strings.hpp"

#ifndef MLSYS_PLUGIN_BUILD_DIR
#define MLSYS_PLUGIN_BUILD_DIR ""
#endif

namespace mlsys::plugin {

namespace fs = std::filesystem;

namespace {

// This library's own folder (dladdr on a function defined here).
fs::path core_library_dir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&search_path), &info) && info.dli_fname) {
    std::error_code ec;
    fs::path p = fs::canonical(info.dli_fname, ec);
    if (!ec) return p.parent_path();
  }
  return {};
}

fs::path executable_lib_dir() {
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return {};
  return exe.parent_path().parent_path() / "lib";
}

}  // namespace

std::string file_name(const std::string& name) { return "libmlsys_" + name + ".so"; }

std::vector<fs::path> search_path() {
  std::vector<fs::path> out;
  auto add = [&](const fs::path& p) {
    if (p.empty()) return;
    std::error_code ec;
    fs::path c = fs::weakly_canonical(p, ec);
    if (ec) c = p;
    for (const auto& q : out)
      if (q == c) return;
    out.push_back(c);
  };
  if (const char* env = std::getenv("MLSYS_PLUGIN_PATH")) {
    for (const auto& part : split(env, ':')) add(part);
    return out;
  }
  add(core_library_dir());
  add(executable_lib_dir());
  add(MLSYS_PLUGIN_BUILD_DIR);
  return out;
}

std::string search_path_text() {
  std::vector<std::string> parts;
  for (const auto& p : search_path()) parts.push_back(p.string());
  return parts.empty() ? std::string("(empty MLSYS_PLUGIN_PATH)") : join(parts, ", ");
}

std::optional<fs::path> find(const std::string& name) {
  for (const auto& dir : search_path()) {
    std::error_code ec;
    fs::path f = dir / file_name(name);
    if (fs::is_regular_file(f, ec)) return f;
  }
  return std::nullopt;
}

std::string load(const std::string& name) {
  static std::mutex mu;
  static std::map<std::string, std::string> outcome;  // never unloaded: registered objects live in it
  std::lock_guard<std::mutex> lock(mu);
  if (auto it = outcome.find(name); it != outcome.end()) return it->second;
  std::string& result = outcome[name];
  auto file = find(name);
  if (!file) {
    result = "library missing: " + file_name(name) + " not found in " + search_path_text();
    return result;
  }
  void* handle = dlopen(file->c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    result = "library missing: " + std::string(why ? why : file->string());
    return result;
  }
  using Init = const char* (*)(int);
  auto init = reinterpret_cast<Init>(dlsym(handle, "mlsys_plugin_init"));
  if (!init) {
    result = file->string() + " is not an mlsys plugin (no mlsys_plugin_init)";
    return result;
  }
  if (const char* err = init(kPluginAbi)) result = err;
  return result;
}

}  // namespace mlsys::plugin
