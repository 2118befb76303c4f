#include "sched/api/cluster_state.hpp"

#include <algorithm>
#include <stdexcept>

namespace mlsys::sched {

int count_nodes(const Allocation& a) {
  int n = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    bool seen = false;
    for (size_t j = 0; j < i && !seen; ++j) seen = a[j].node == a[i].node;
    if (!seen) ++n;
  }
  return n;
}

ClusterState::ClusterState(std::vector<NodeSpec> nodes, std::vector<std::string> gpu_types)
    : nodes_(std::move(nodes)), gpu_types_(std::move(gpu_types)) {
  if (gpu_types_.empty()) gpu_types_.push_back("gpu");
  const int n = num_nodes();
  gpu_offset_.resize(n + 1);
  free_whole_.assign(n, 0);
  free_cpu_.resize(n);
  free_mem_.resize(n);
  for (int i = 0; i < n; ++i) {
    const auto& nd = nodes_[i];
    if (nd.gpus < 0 || nd.gpus > 64) throw std::invalid_argument("node " + nd.name + ": GPUs per node must be 0..64");
    if (nd.gpu_type < 0 || nd.gpu_type >= static_cast<int>(gpu_types_.size()))
      throw std::invalid_argument("node " + nd.name + ": GPU type index out of range");
    gpu_offset_[i + 1] = gpu_offset_[i] + nd.gpus;
    max_gpus_ = std::max(max_gpus_, nd.gpus);
    num_racks_ = std::max(num_racks_, nd.rack + 1);
    free_cpu_[i] = nd.cpu_milli;
    free_mem_[i] = nd.memory_mib;
  }
  total_gpus_ = gpu_offset_[n];
  free_milli_.assign(total_gpus_, 1000);
  total_free_milli_ = int64_t{total_gpus_} * 1000;
  const size_t words = (static_cast<size_t>(n) + 63) / 64;
  buckets_.assign(max_gpus_ + 1, std::vector<uint64_t>(words, 0));
  bucket_count_.assign(max_gpus_ + 1, 0);
  for (int i = 0; i < n; ++i) {
    free_whole_[i] = nodes_[i].gpus;
    buckets_[free_whole_[i]][i >> 6] |= uint64_t{1} << (i & 63);
    ++bucket_count_[free_whole_[i]];
  }
  total_free_whole_ = total_gpus_;
}

int ClusterState::next_with_free(int k, int after) const {
  if (k < 0 || k > max_gpus_ || bucket_count_[k] == 0) return -1;
  const auto& bits = buckets_[k];
  size_t start = static_cast<size_t>(after + 1);
  size_t w = start >> 6;
  if (w >= bits.size()) return -1;
  uint64_t word = bits[w] & (~uint64_t{0} << (start & 63));
  while (true) {
    if (word) return static_cast<int>((w << 6) + static_cast<size_t>(__builtin_ctzll(word)));
    if (++w >= bits.size()) return -1;
    word = bits[w];
  }
}

void ClusterState::set_whole(int n, int value) {
  int old = free_whole_[n];
  if (old == value) return;
  buckets_[old][n >> 6] &= ~(uint64_t{1} << (n & 63));
  --bucket_count_[old];
  buckets_[value][n >> 6] |= uint64_t{1} << (n & 63);
  ++bucket_count_[value];
  total_free_whole_ += value - old;
  free_whole_[n] = value;
}

bool ClusterState::can_host(int n, const JobInfo& job, int gpus_here) const {
  const auto& nd = nodes_[n];
  if (job.gpu_type >= 0 && job.num_gpus > 0 && nd.gpu_type != job.gpu_type) return false;
  const int total = std::max(job.num_gpus, 1);
  // Conservative: the node may be the first one of the job, which also carries the remainder.
  if (nd.cpu_milli > 0 && job.cpu_milli > 0) {
    int64_t need = job.num_gpus > 0 ? job.cpu_milli * gpus_here / total + job.cpu_milli % total : job.cpu_milli;
    if (need > free_cpu_[n]) return false;
  }
  if (nd.memory_mib > 0 && job.memory_mib > 0) {
    int64_t need = job.num_gpus > 0 ? job.memory_mib * gpus_here / total + job.memory_mib % total : job.memory_mib;
    if (need > free_mem_[n]) return false;
  }
  if (job.num_gpus == 0) return true;
  if (job.gpu_milli >= 1000) return free_whole_[n] >= gpus_here;
  int fits = 0;
  for (int g = 0; g < nd.gpus; ++g)
    if (free_milli_[gpu_offset_[n] + g] >= job.gpu_milli) ++fits;
  return fits >= gpus_here;
}

void ClusterState::pick_gpus(int n, const JobInfo& job, int count, Allocation& out) const {
  if (job.num_gpus == 0) {
    out.push_back(GpuSlice{n, -1, 0});
    return;
  }
  const int base = gpu_offset_[n];
  const int gpus = nodes_[n].gpus;
  if (job.gpu_milli >= 1000) {
    for (int g = 0; g < gpus && count > 0; ++g)
      if (free_milli_[base + g] == 1000) {
        out.push_back(GpuSlice{n, g, 1000});
        --count;
      }
    return;
  }
  // Fractional: best fit per slice, never the same GPU twice.
  uint64_t used = 0;
  for (; count > 0; --count) {
    int best = -1;
    for (int g = 0; g < gpus; ++g) {
      if (used >> g & 1) continue;
      int f = free_milli_[base + g];
      if (f >= job.gpu_milli && (best < 0 || f < free_milli_[base + best])) best = g;
    }
    if (best < 0) return;
    used |= uint64_t{1} << best;
    out.push_back(GpuSlice{n, best, job.gpu_milli});
  }
}

// Calls f(node, gpus_on_node, cpu_share, mem_share) once per distinct node, in first-seen order;
// the first node carries the division remainder so shares always sum to the demand.
template <class F>
void ClusterState::for_each_node_share(const JobInfo& job, const Allocation& a, F&& f) const {
  const int total = std::max(job.num_gpus, 1);
  bool first = true;
  for (size_t i = 0; i < a.size(); ++i) {
    bool seen = false;
    for (size_t j = 0; j < i && !seen; ++j) seen = a[j].node == a[i].node;
    if (seen) continue;
    int here = 0;
    for (size_t j = i; j < a.size(); ++j) here += a[j].node == a[i].node;
    if (job.num_gpus == 0) here = 0;
    int64_t cpu = job.num_gpus > 0 ? job.cpu_milli * here / total : job.cpu_milli;
    int64_t mem = job.num_gpus > 0 ? job.memory_mib * here / total : job.memory_mib;
    if (first && job.num_gpus > 0) {
      cpu += job.cpu_milli % total;
      mem += job.memory_mib % total;
    }
    first = false;
    f(a[i].node, here, cpu, mem);
  }
}

std::string ClusterState::check(const JobInfo& job, const Allocation& a) const {
  const size_t want = job.num_gpus > 0 ? static_cast<size_t>(job.num_gpus) : 1;
  if (a.size() != want)
    return "allocation has " + std::to_string(a.size()) + " slices, job needs " + std::to_string(want);
  for (size_t i = 0; i < a.size(); ++i) {
    const auto& s = a[i];
    if (s.node < 0 || s.node >= num_nodes()) return "node " + std::to_string(s.node) + " does not exist";
    const auto& nd = nodes_[s.node];
    if (job.num_gpus == 0) {
      if (s.gpu != -1) return "a CPU-only job was given a GPU";
      continue;
    }
    if (s.gpu < 0 || s.gpu >= nd.gpus)
      return "GPU " + std::to_string(s.gpu) + " does not exist on node " + nd.name;
    if (s.milli != std::min(job.gpu_milli, 1000))
      return "slice share " + std::to_string(s.milli) + " differs from the job's " + std::to_string(job.gpu_milli);
    if (job.gpu_type >= 0 && nd.gpu_type != job.gpu_type)
      return "node " + nd.name + " has GPU type " + gpu_types_[nd.gpu_type] + ", job needs " + gpu_types_[job.gpu_type];
    for (size_t j = 0; j < i; ++j)
      if (a[j].node == s.node && a[j].gpu == s.gpu)
        return "GPU " + std::to_string(s.gpu) + " of node " + nd.name + " given twice";
    int f = free_milli_[gpu_offset_[s.node] + s.gpu];
    if (f < s.milli)
      return "GPU " + std::to_string(s.gpu) + " of node " + nd.name + " has " + std::to_string(f) +
             "/1000 free, needs " + std::to_string(s.milli) + " (capacity exceeded)";
  }
  std::string err;
  for_each_node_share(job, a, [&](int n, int, int64_t cpu, int64_t mem) {
    if (!err.empty()) return;
    const auto& nd = nodes_[n];
    if (nd.cpu_milli > 0 && cpu > free_cpu_[n])
      err = "node " + nd.name + " has " + std::to_string(free_cpu_[n]) + " free CPU milli, needs " + std::to_string(cpu);
    else if (nd.memory_mib > 0 && mem > free_mem_[n])
      err = "node " + nd.name + " has " + std::to_string(free_mem_[n]) + " free MiB, needs " + std::to_string(mem);
  });
  return err;
}

void ClusterState::allocate(const JobInfo& job, const Allocation& a) {
  for (const auto& s : a) {
    if (s.gpu < 0) continue;
    int& f = free_milli_[gpu_offset_[s.node] + s.gpu];
    bool was_whole = f == 1000;
    f -= s.milli;
    total_free_milli_ -= s.milli;
    if (was_whole) set_whole(s.node, free_whole_[s.node] - 1);
  }
  for_each_node_share(job, a, [&](int n, int, int64_t cpu, int64_t mem) {
    if (nodes_[n].cpu_milli > 0) free_cpu_[n] -= cpu;
    if (nodes_[n].memory_mib > 0) free_mem_[n] -= mem;
  });
}

void ClusterState::release(const JobInfo& job, const Allocation& a) {
  for (const auto& s : a) {
    if (s.gpu < 0) continue;
    int& f = free_milli_[gpu_offset_[s.node] + s.gpu];
    f += s.milli;
    total_free_milli_ += s.milli;
    if (f == 1000) set_whole(s.node, free_whole_[s.node] + 1);
  }
  for_each_node_share(job, a, [&](int n, int, int64_t cpu, int64_t mem) {
    if (nodes_[n].cpu_milli > 0) free_cpu_[n] += cpu;
    if (nodes_[n].memory_mib > 0) free_mem_[n] += mem;
  });
}

}  // namespace mlsys::sched
