// Fuzz target: a .npy array (core/util/npy.hpp, the one reader train-gnn's .npz graphs and CoOpt's
// optimized shards go through) from arbitrary bytes: the lead, the header dictionary, the size
// checks before any allocation and the element conversion. Bad input is an InputError; anything
// else (a crash, another exception, a sanitizer report) is a finding.
#include <string>

#include "core/util/error.hpp"
#include "core/util/npy.hpp"
#include "tests/fuzz/fuzz_target.hpp"

MLSYS_FUZZ_TARGET(npy) {
  try {
    const mlsys::NpyArray a = mlsys::parse_npy(std::string(reinterpret_cast<const char*>(data), size), "fuzz.npy");
    (void)a.doubles();
  } catch (const mlsys::InputError&) {
  }
  return 0;
}
