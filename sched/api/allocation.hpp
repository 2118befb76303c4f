#pragma once
// Where a job runs: one slice per GPU (node, GPU index on that node, share in thousandths). A
// CPU-only job holds one slice with gpu = -1 naming the node that hosts it.
#include <cstdint>
#include <vector>

namespace mlsys::sched {

struct GpuSlice {
  int32_t node = 0;
  int32_t gpu = 0;     // index within the node; -1 for a CPU-only job
  int32_t milli = 1000;
};

using Allocation = std::vector<GpuSlice>;

// Distinct nodes an allocation touches (slices need not be sorted).
int count_nodes(const Allocation& a);

}  // namespace mlsys::sched
