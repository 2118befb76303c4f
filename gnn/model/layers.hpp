#pragma once
#include "gnn/model/model.hpp"

namespace mlsys::gnn {

// slot: the exchange slot of this layer (its index). first: input is the raw/precomputed features.
std::unique_ptr<Layer> make_gcn_layer(DeviceContext& ctx, int slot, int in, int out, float dropout, bool precomputed,
                                      bool aggregate_first, uint64_t seed);
std::unique_ptr<Layer> make_sage_layer(DeviceContext& ctx, int slot, int in, int out, float dropout, bool aggregate_first,
                                       uint64_t seed);
// heads x out columns (concatenated); the caller uses heads = 1 for the output layer.
std::unique_ptr<Layer> make_gat_layer(DeviceContext& ctx, int slot, int in, int out, int heads, float dropout,
                                      uint64_t seed);

Param make_param(DeviceContext& ctx, const std::string& name, int64_t rows, int64_t cols, float init_bound,
                 uint64_t seed, bool decay);

}  // namespace mlsys::gnn
