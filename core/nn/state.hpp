#pragma once
// Saving and loading named tensors (model parameters, optimizer state) as one binary blob.
// Layout (little-endian): "MLSYSNN1", u64 count, then per tensor: u32 name length, name bytes,
// u8 dtype, u8 rank, rank x i64 dims, u64 byte count, raw bytes (row-major, host order).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/nn/module.hpp"

namespace mlsys::nn {

using NamedTensors = std::vector<std::pair<std::string, Tensor>>;

// Serializes (copying device tensors to the host).
std::vector<uint8_t> save_tensors(const NamedTensors& tensors);
// Parses a blob into host tensors; throws InputError on a malformed blob.
NamedTensors load_tensors(const std::vector<uint8_t>& blob);
// The same, with the tensors allocated on ctx (its pool, its device).
NamedTensors load_tensors(const std::vector<uint8_t>& blob, DeviceContext& ctx);

NamedTensors parameter_values(const std::vector<Parameter*>& params);
// Copies saved values into the parameters by name; throws InputError naming a missing
// parameter or a shape/dtype mismatch.
void load_parameters(const std::vector<Parameter*>& params, const std::vector<uint8_t>& blob);
// The same, reading through tensors on ctx (the parameters' context) instead of the host context.
void load_parameters(const std::vector<Parameter*>& params, const std::vector<uint8_t>& blob, DeviceContext& ctx);
std::vector<uint8_t> save_parameters(const std::vector<Parameter*>& params);

}  // namespace mlsys::nn
