#include "sched/placement/fragmentation.hpp"

namespace mlsys::sched {

double task_fragmentation(const int* free, int gpus, const DemandClass& task) {
  int64_t total = 0, whole = 0, fits = 0, unusable = 0;
  for (int g = 0; g < gpus; ++g) {
    total += free[g];
    if (free[g] == 1000) ++whole;
    if (free[g] >= task.gpu_milli) ++fits;
  }
  if (task.num_gpus == 0) return 0;
  const bool can_fit = task.gpu_milli >= 1000 ? whole >= task.num_gpus : fits >= task.num_gpus;
  if (!can_fit) return static_cast<double>(total);
  for (int g = 0; g < gpus; ++g) {
    const int need = task.gpu_milli >= 1000 ? 1000 : task.gpu_milli;
    if (free[g] > 0 && free[g] < need) unusable += free[g];
  }
  return static_cast<double>(unusable);
}

double node_fragmentation(const int* free, int gpus, const std::vector<DemandClass>& workload) {
  double sum = 0, weight = 0;
  for (const auto& t : workload) {
    sum += t.weight * task_fragmentation(free, gpus, t);
    weight += t.weight;
  }
  return weight > 0 ? sum / weight : 0;
}

double cluster_fragmentation(const ClusterState& c, const std::vector<DemandClass>& workload) {
  std::vector<int> free(64);
  double sum = 0;
  for (int n = 0; n < c.num_nodes(); ++n) {
    const int gpus = c.node(n).gpus;
    for (int g = 0; g < gpus; ++g) free[g] = c.gpu_free_milli(n, g);
    sum += node_fragmentation(free.data(), gpus, workload);
  }
  return sum;
}

}  // namespace mlsys::sched
