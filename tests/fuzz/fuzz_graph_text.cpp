// libFuzzer target for the graph text loader (gnn/graph/text_loader.cpp): the input is split at
// "\n%%\n" into meta.txt, edges.txt, features.txt, labels.txt and split.txt, written to a folder
// of this process, and loaded strictly and leniently. Anything other than an mlsys::Error (an
// unexpected exception type, a crash, a sanitizer report, a hang) is a bug.
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "core/util/error.hpp"
#include "gnn/graph/loaders.hpp"
#include "tests/fuzz/graph_fuzz_checks.hpp"

namespace {

const std::filesystem::path& folder() {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("mlsys_fuzz_graph_text." + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const char* const kFiles[] = {"meta.txt", "edges.txt", "features.txt", "labels.txt", "split.txt"};
  std::string_view in(reinterpret_cast<const char*>(data), size);
  for (const char* name : kFiles) {
    const size_t cut = in.find("\n%%\n");
    const std::string_view part = in.substr(0, cut);
    std::ofstream(folder() / name, std::ios::binary | std::ios::trunc).write(part.data(), static_cast<std::streamsize>(part.size()));
    in = cut == std::string_view::npos ? std::string_view() : in.substr(cut + 4);
  }
  for (bool lenient : {false, true}) {
    try {
      mlsys::fuzz::check_loaded_graph(mlsys::gnn::load_text_graph(folder(), lenient));
    } catch (const mlsys::Error&) {
    } catch (const mlsys::UsageError&) {
    }
  }
  return 0;
}
