// Every shipped config resolves from any working folder: its data paths come from MLSYS_DATA_DIR
// or are relative to the config file, never to the folder mlsys was started in.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "core/util/strings.hpp"
#include "tests/common/test_util.hpp"

namespace fs = std::filesystem;
using mlsys::test::run_mlsys;

TEST_CASE("cli: every shipped config resolves from another folder and names data that exists") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  const fs::path configs = mlsys::test::source_dir() / "configs";
  mlsys::test::TempDir elsewhere("shipped_configs");
  const std::string data_root = fs::canonical(data).parent_path().string();  // ../shared: data and reference
  size_t checked = 0;
  for (const auto& e : fs::recursive_directory_iterator(configs)) {
    if (!e.is_regular_file() || e.path().extension() != ".yaml" || e.path().filename() == "openai.yaml") continue;
    // A study's protocol file (seeds, runs, checks) is read by scripts/repro/protocol.py, not mlsys.
    if (e.path().filename().string().ends_with("protocol.yaml")) continue;
    CAPTURE(e.path().string());
    // The command is the one whose sections the file uses.
    std::string shown;
    for (const char* command : {"train-gnn", "simulate", "schedmate", "coopt"}) {
      auto r = run_mlsys(std::string("config show ") + command + " '" + e.path().string() + "'", elsewhere.path().string());
      if (r.exit_code == 0) {
        shown = r.out;
        break;
      }
    }
    REQUIRE_MESSAGE(!shown.empty(), "no command accepts this config when run from another folder");
    // Every resolved value naming the shared data (however it was written) is a file or folder that
    // exists: a path written relative to the working folder would resolve somewhere else from here.
    for (const auto& line : mlsys::split(shown, '\n')) {
      if (line.find("/shared/") == std::string::npos && line.find(data_root) == std::string::npos) continue;
      const size_t at = line.find('/', line.find(':') == std::string::npos ? 0 : line.find(':'));
      if (at == std::string::npos || line.find('#') < at) continue;  // a comment, not a value
      std::string path = line.substr(at);
      const size_t end = path.find_first_of("'\", ]}#");
      if (end != std::string::npos) path = path.substr(0, end);
      CAPTURE(line);
      CHECK(fs::exists(path));
    }
    ++checked;
  }
  CHECK(checked > 40);
}
