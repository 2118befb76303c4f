#pragma once
// Checkpoints: "MLSYSCK1\n", u64 length of a JSON header, the header (next epoch, config
// fingerprint, adaptor state, the epoch records so far, parameter names and sizes), then for every
// parameter its value, Adam m and v as raw f32. Every random stream in training is counter-based
// on (seed, epoch, ...), so the seed and the epoch are the complete RNG state.
#include <string>
#include <vector>

#include "core/util/json.hpp"
#include "gnn/model/model.hpp"

namespace mlsys::gnn {

void save_checkpoint(const std::string& path, const Json& header, const std::vector<Param*>& params);
// Restores parameter values and moments (shapes must match) and returns the header.
Json load_checkpoint(const std::string& path, const std::vector<Param*>& params);

}  // namespace mlsys::gnn
