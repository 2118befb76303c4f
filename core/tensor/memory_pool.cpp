#include "core/tensor/memory_pool.hpp"

#include <bit>

#include "core/util/error.hpp"

namespace mlsys {

Json PoolStats::to_json() const {
  Json j = Json::object();
  j["in_use_bytes"] = in_use_bytes;
  j["peak_bytes"] = peak_bytes;
  j["cached_bytes"] = cached_bytes;
  j["limit_bytes"] = limit_bytes;
  j["allocations"] = allocations;
  j["hits"] = hits;
  j["hit_rate"] = hit_rate();
  j["system_allocations"] = system_allocations;
  if (driver_used_peak_bytes) j["driver_used_peak_bytes"] = driver_used_peak_bytes;
  return j;
}

MemoryPool::MemoryPool(std::string name, Device device, uint64_t limit_bytes)
    : name_(std::move(name)), device_(device) {
  stats_.limit_bytes = limit_bytes;
}

void* MemoryPool::allocate(size_t bytes, void* stream) {
  if (bytes == 0) return nullptr;
  const size_t cls = class_of(bytes);
  std::lock_guard<std::mutex> lk(mu_);
  ++stats_.allocations;
  void* p = nullptr;
  auto it = cache_.find({stream, cls});
  if (it != cache_.end() && !it->second.empty()) {
    p = it->second.back();
    it->second.pop_back();
    stats_.cached_bytes -= cls;
    ++stats_.hits;
  } else {
    if (stats_.limit_bytes && stats_.in_use_bytes + stats_.cached_bytes + cls > stats_.limit_bytes) {
      release_cached_locked();
      if (stats_.in_use_bytes + cls > stats_.limit_bytes) throw_out_of_memory(bytes);
    }
    p = system_allocate(cls);
    if (!p) {
      release_cached_locked();
      p = system_allocate(cls);
      if (!p) throw_out_of_memory(bytes, "the system has no more free memory");
    }
    ++stats_.system_allocations;
  }
  stats_.in_use_bytes += cls;
  if (stats_.in_use_bytes > stats_.peak_bytes) stats_.peak_bytes = stats_.in_use_bytes;
  return p;
}

void MemoryPool::deallocate(void* p, size_t bytes, void* stream) {
  if (!p) return;
  const size_t cls = class_of(bytes);
  std::lock_guard<std::mutex> lk(mu_);
  stats_.in_use_bytes -= cls;
  cache_[{stream, cls}].push_back(p);
  stats_.cached_bytes += cls;
}

void MemoryPool::release_cached() {
  std::lock_guard<std::mutex> lk(mu_);
  release_cached_locked();
}

void MemoryPool::release_cached_locked() {
  if (cache_.empty()) return;
  before_release();
  for (auto& [key, blocks] : cache_)
    for (void* p : blocks) system_free(p, key.second);
  cache_.clear();
  stats_.cached_bytes = 0;
}

PoolStats MemoryPool::stats() const {
  std::lock_guard<std::mutex> lk(mu_);
  PoolStats s = stats_;
  s.driver_used_peak_bytes = driver_used_peak();
  return s;
}

void MemoryPool::set_limit(uint64_t bytes) {
  std::lock_guard<std::mutex> lk(mu_);
  stats_.limit_bytes = bytes;
}

void MemoryPool::reset_peak() {
  std::lock_guard<std::mutex> lk(mu_);
  stats_.peak_bytes = stats_.in_use_bytes;
}

size_t MemoryPool::size_class(size_t bytes, size_t granularity) {
  if (bytes <= granularity) return granularity;
  if (bytes <= 1024) return (bytes + granularity - 1) / granularity * granularity;
  // 4 classes per power of two: 1, 1.25, 1.5, 1.75 times 2^k.
  size_t p = std::bit_floor(bytes);
  size_t step = p / 4;
  size_t r = (bytes + step - 1) / step * step;
  return (r + granularity - 1) / granularity * granularity;
}

void MemoryPool::throw_out_of_memory(size_t asked, const std::string& detail) const {
  std::string msg = "out of memory in pool " + name_ + ": asked " + std::to_string(asked) + ", limit " +
                    (stats_.limit_bytes ? std::to_string(stats_.limit_bytes) : std::string("unlimited")) +
                    ", in use " + std::to_string(stats_.in_use_bytes) + " (bytes)";
  if (!detail.empty()) msg += "; " + detail;
  msg += device_.is_cpu() ? "; raise device.host_pool_limit_mb or reduce the problem size"
                          : "; raise device.device_pool_limit_mb or reduce the batch/graph size";
  throw Error(msg);
}

}  // namespace mlsys
