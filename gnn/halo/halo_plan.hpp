#pragma once
// What one worker owns and exchanges. Local row ids: owned nodes first (ascending global id),
// then halo nodes grouped by owning peer (ascending global id within a peer). Every layer, peer q
// sends this worker the rows `halo_offset[q]..halo_offset[q+1]` (its own rows send_rows of the
// peer's plan, in the same order), so each peer gets exactly the boundary rows it needs.
#include <cstdint>
#include <vector>

#include "gnn/graph/graph.hpp"

namespace mlsys::gnn {

struct HaloPlan {
  int rank = 0, parts = 1;
  std::vector<int32_t> owned;        // global ids, ascending
  std::vector<int32_t> halo;         // global ids, grouped by peer
  std::vector<int64_t> halo_offset;  // parts + 1
  std::vector<std::vector<int32_t>> send_rows;  // per peer: local owned rows it needs, in its order
  // Local adjacency of the owned rows (no self loops); columns are local ids in [0, owned+halo).
  std::vector<int64_t> indptr;
  std::vector<int32_t> indices;
  std::vector<int32_t> degree;  // global degree of every local id (owned then halo)

  int64_t num_owned() const { return static_cast<int64_t>(owned.size()); }
  int64_t num_halo() const { return static_cast<int64_t>(halo.size()); }
  int64_t num_local() const { return num_owned() + num_halo(); }
  int64_t halo_from(int q) const { return halo_offset[q + 1] - halo_offset[q]; }
  int64_t sends_to(int q) const { return static_cast<int64_t>(send_rows[q].size()); }
  int64_t total_send_rows() const;
};

// The plan of partition `rank` (needs only the global graph and the assignment, so every MPI
// rank can build its own).
HaloPlan build_halo_plan(const Graph& g, const std::vector<int32_t>& owner, int parts, int rank);
// Every partition's plan (the partition report, tests).
std::vector<HaloPlan> build_halo_plans(const Graph& g, const std::vector<int32_t>& owner, int parts);

}  // namespace mlsys::gnn
