#include "sched/placement/fragmentation.hpp"

namespace mlsys::sched {

NodeFree node_free(const ClusterState& c, int n, int* buffer) {
  const auto& nd = c.node(n);
  for (int g = 0; g < nd.gpus; ++g) buffer[g] = c.gpu_free_milli(n, g);
  NodeFree f;
  f.free = buffer;
  f.gpus = nd.gpus;
  f.gpu_type = nd.gpu_type;
  f.cpu = nd.cpu_milli > 0 ? c.free_cpu(n) : -1;
  f.memory = nd.memory_mib > 0 ? c.free_memory(n) : -1;
  return f;
}

double task_fragmentation(const NodeFree& node, const DemandClass& task) {
  int64_t total = 0, whole = 0, fits = 0, unusable = 0;
  const int need = task.gpu_milli >= 1000 ? 1000 : task.gpu_milli;
  for (int g = 0; g < node.gpus; ++g) {
    const int f = node.free[g];
    total += f;
    if (f == 1000) ++whole;
    if (f >= need) {
      ++fits;
    } else {
      unusable += f;
    }
  }
  bool can_run = true;
  if (task.gpu_type >= 0 && task.num_gpus > 0 && node.gpu_type >= 0 && node.gpu_type != task.gpu_type) can_run = false;
  if (node.cpu >= 0 && task.cpu_milli > node.cpu) can_run = false;
  if (node.memory >= 0 && task.memory_mib > node.memory) can_run = false;
  if (task.num_gpus > 0 && (task.gpu_milli >= 1000 ? whole : fits) < task.num_gpus) can_run = false;
  if (!can_run) return static_cast<double>(total);
  if (task.num_gpus == 0) return 0;
  return static_cast<double>(unusable);
}

double task_fragmentation(const int* free, int gpus, const DemandClass& task) {
  NodeFree n;
  n.free = free;
  n.gpus = gpus;
  return task_fragmentation(n, task);
}

double node_fragmentation(const NodeFree& node, const std::vector<DemandClass>& workload) {
  double sum = 0, weight = 0;
  for (const auto& t : workload) {
    sum += t.weight * task_fragmentation(node, t);
    weight += t.weight;
  }
  return weight > 0 ? sum / weight : 0;
}

double cluster_fragmentation(const ClusterState& c, const std::vector<DemandClass>& workload) {
  std::vector<int> free(static_cast<size_t>(c.max_node_gpus()) + 1);
  double sum = 0;
  for (int n = 0; n < c.num_nodes(); ++n) sum += node_fragmentation(node_free(c, n, free.data()), workload);
  return sum;
}

}  // namespace mlsys::sched
