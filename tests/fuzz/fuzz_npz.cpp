// Fuzz target: .npz graphs (core/util/npz.hpp through libzip, core/util/npy.hpp, gnn/graph/npz_graph.hpp)
// from arbitrary bytes: the ZIP directory (ZIP64 fields included), the size checks before inflating,
// inflating, the .npy header parser and every layout's checks.
// Bad input is an InputError; anything else (a crash, another exception) is a finding.
#include <string>

#include "core/util/error.hpp"
#include "gnn/graph/npz_graph.hpp"
#include "tests/fuzz/fuzz_target.hpp"

MLSYS_FUZZ_TARGET(npz) {
  using namespace mlsys::gnn;
  try {
    const mlsys::NpzArchive a = mlsys::NpzArchive::from_bytes(std::string(reinterpret_cast<const char*>(data), size), "fuzz.npz");
    for (const auto& key : a.keys()) {
      try {
        (void)a.array(key).doubles();
      } catch (const mlsys::InputError&) {
      }
    }
    GraphOptions o;
    o.sbm.train_fraction = 0.5;
    o.sbm.val_fraction = 0.25;
    (void)npz_graph(a, nullptr, "fuzz", o, 1);
  } catch (const mlsys::InputError&) {
  }
  return 0;
}
