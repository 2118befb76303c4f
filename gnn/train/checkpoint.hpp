#pragma once
// Checkpoints: "MLSYSCK1\n", u64 length of a JSON header, the header (next epoch, config
// fingerprint, adaptor state, the epoch records so far, parameter names and sizes), then for every
// parameter its value and the optimizer's Adam moments m and v as raw f32 (zeros for an optimizer
// without them). Every random stream in training is counter-based on (seed, epoch, ...), so the
// seed and the epoch are the complete RNG state; the optimizer takes one step per epoch.
#include <cstdint>
#include <string>
#include <vector>

#include "core/nn/optimizer.hpp"
#include "core/util/json.hpp"
#include "gnn/graph/graph.hpp"
#include "gnn/model/model_options.hpp"

namespace mlsys::gnn {

// The parameters are the optimizer's.
void save_checkpoint(const std::string& path, const Json& header, nn::Optimizer& opt);
// Restores parameter values, the moments and the optimizer's step count (= the header's epoch);
// returns the header. InputError when the file does not match the model.
Json load_checkpoint(const std::string& path, nn::Optimizer& opt);

// What a checkpoint must come from to be resumed: the graph (content hash of its structure,
// features, labels and split), the partition (hash of every node's owner), the model (its options)
// and the seed. Stored in the header as "fingerprint".
Json run_fingerprint(const Graph& g, const std::vector<int32_t>& owner, const ModelOptions& m, uint64_t seed);
// InputError naming the parts of `have` (the checkpoint's) that differ from `want` (this run's).
void check_fingerprint(const Json& want, const Json* have, const std::string& path);

}  // namespace mlsys::gnn
