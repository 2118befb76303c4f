#pragma once
// Per-partition statistics: inner nodes, halo nodes per peer, edges, and the communication volume
// of one layer's halo exchange.
#include <vector>

#include "core/runtime/table.hpp"
#include "core/util/json.hpp"
#include "gnn/halo/halo_plan.hpp"

namespace mlsys::gnn {

// One row per partition: part, inner_nodes, halo_nodes, edges, send_rows, halo_from_<q>...
Table partition_table(const std::vector<HaloPlan>& plans);
// {"parts", "halo_rows_per_layer", "fp32_bytes_per_layer_at_<width>", "max_inner", "min_inner", "edge_cut"}
Json partition_summary(const std::vector<HaloPlan>& plans, int64_t width);

}  // namespace mlsys::gnn
