#pragma once
// Backend plugins: shared objects libmlsys_<name>.so (cuda, nccl) that the core loads with dlopen
// when a config asks for them, so that the mlsys binary and libmlsys_core.so link no CUDA or NCCL
// library. A plugin exports one C entry point,
//
//   extern "C" const char* mlsys_plugin_init(int abi);   // nullptr on success, else the reason
//
// which registers what it provides with the core (register_device_backend,
// comm::register_plugin_communicator). `abi` is kPluginAbi of the core that loads it; a plugin
// built against another core refuses (a stale plugin next to a new binary).
//
// Search path, first match wins: $MLSYS_PLUGIN_PATH (colon-separated; when set, only it), the
// folder of libmlsys_core.so (an installed tree's lib/), <folder of the executable>/../lib (the
// same, and the build tree's lib/ for build/bin/mlsys, build/tests/*, build/bench/*), and the
// build tree's lib/ this core was built in.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace mlsys::plugin {

constexpr int kPluginAbi = 2;  // 2: the codec table's sr_encode takes a rounding rule

// "libmlsys_cuda.so" for "cuda".
std::string file_name(const std::string& name);
std::vector<std::filesystem::path> search_path();
std::optional<std::filesystem::path> find(const std::string& name);
// The search path as one phrase for messages ("build/lib, /usr/lib").
std::string search_path_text();

// Loads the plugin once per process (later calls return the first outcome) and runs its entry
// point. Returns "" on success, else the reason in one line: "library missing: ..." when the file
// or one of its libraries cannot be loaded, or what the plugin's entry point reported.
std::string load(const std::string& name);

}  // namespace mlsys::plugin
