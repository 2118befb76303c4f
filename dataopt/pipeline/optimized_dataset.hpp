#pragma once
// The optimized dataset (step 5): the union over shards of (x, y), written once and reusable by any
// later training. Layout of the folder:
//   manifest.json                 format "mlsys-coopt-optimized", version 1, geometry, n, the
//                                 participants (prior, rows, uniformity, alignment errors), S
//   shard-<k>/images.npy          float32 [rows, C*H*W], pixels in [0, 1]
//   shard-<k>/targets.npy         float32 [rows, n], y = T_k W_k f_k(x)
//   shard-<k>/targets_unaligned.npy  float32 [rows, n], W_k f_k(x) (optional: the T = I ablation)
//   shard-<k>/index.npy           int32 [rows], pool index of each row
#include <filesystem>
#include <string>
#include <vector>

#include "core/tensor/tensor.hpp"
#include "core/util/json.hpp"
#include "dataopt/data/image_set.hpp"

namespace mlsys::dataopt {

// Host tensors [rows, C*H*W] and [rows, n]; targets_unaligned undefined when not written.
struct Shard {
  Tensor images, targets, targets_unaligned;
  std::vector<int32_t> index;
};

void write_shard(const std::filesystem::path& dir, int k, const Shard& shard);
void write_manifest(const std::filesystem::path& dir, const Json& manifest);

struct OptimizedDataset {
  Json manifest;
  Geometry geometry{1, 1, 1};
  Tensor images, targets, targets_unaligned;  // host; unaligned undefined when not written
  std::vector<int32_t> index;                 // pool index per row
  std::vector<int32_t> shard_of;              // participant per row
  std::vector<float> weight;                  // the student's loss weight per row (manifest "weight", default 1)
};

// Reads and checks every file the manifest lists; throws InputError naming the bad file.
OptimizedDataset read_optimized(const std::filesystem::path& dir);

}  // namespace mlsys::dataopt
