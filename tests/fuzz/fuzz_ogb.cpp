// libFuzzer target for the OGB node-property loader (gnn/graph/ogb_loader.cpp): the input is split
// at "\n%%\n" into raw/{num-node-list,edge,node-feat,node-label}.csv and
// split/s/{train,valid,test}.csv of a folder of this process, loaded strictly and leniently.
// Anything other than an mlsys::Error (an unexpected exception type, a crash, a sanitizer report,
// a hang) is a bug; what loads must be a consistent graph.
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
#include "tests/fuzz/fuzz_target.hpp"

namespace {

const std::filesystem::path& ogb_folder() {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("mlsys_fuzz_ogb." + std::to_string(::getpid()));
    std::filesystem::create_directories(d / "raw");
    std::filesystem::create_directories(d / "split" / "s");
    return d;
  }();
  return dir;
}

}  // namespace

MLSYS_FUZZ_TARGET(ogb) {
  static const char* const kFiles[] = {"raw/num-node-list.csv", "raw/edge.csv", "raw/node-feat.csv",
                                       "raw/node-label.csv", "split/s/train.csv", "split/s/valid.csv",
                                       "split/s/test.csv"};
  std::string_view in(reinterpret_cast<const char*>(data), size);
  for (const char* name : kFiles) {
    const size_t cut = in.find("\n%%\n");
    const std::string_view part = in.substr(0, cut);
    std::ofstream(ogb_folder() / name, std::ios::binary | std::ios::trunc)
        .write(part.data(), static_cast<std::streamsize>(part.size()));
    in = cut == std::string_view::npos ? std::string_view() : in.substr(cut + 4);
  }
  for (bool lenient : {false, true}) {
    try {
      mlsys::fuzz::check_loaded_graph(mlsys::gnn::load_ogb_graph(ogb_folder(), "", lenient));
    } catch (const mlsys::Error&) {
    }
  }
  return 0;
}
