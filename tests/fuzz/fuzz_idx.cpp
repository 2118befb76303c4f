// Fuzz target: IDX image and label files (dataopt/data/idx.hpp: the MNIST family, CoOpt's image
// data) from arbitrary bytes: the magic, the big-endian dims, the size checks against the file
// and the element conversion. Bad input is an mlsys::Error naming the file; anything else is a
// finding.
#include "core/util/error.hpp"
#include "dataopt/data/idx.hpp"
#include "tests/fuzz/fuzz_file.hpp"
#include "tests/fuzz/fuzz_target.hpp"

MLSYS_FUZZ_TARGET(idx) {
  const std::string path = mlsys::fuzz::input_file("fuzz-idx-ubyte", data, size);
  try {
    (void)mlsys::dataopt::read_idx_images(path);
  } catch (const mlsys::Error&) {
  }
  try {
    (void)mlsys::dataopt::read_idx_labels(path);
  } catch (const mlsys::Error&) {
  }
  return 0;
}
