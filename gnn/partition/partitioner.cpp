#include "gnn/partition/partitioner.hpp"

#include <fmt/format.h>

#include <cstring>
#include <filesystem>

#include "core/log/log.hpp"
#include "core/util/fs.hpp"
#include "core/io/hash.hpp"
#include "core/util/random.hpp"

namespace mlsys::gnn {

namespace fs = std::filesystem;

PartitionerRegistry& partitioner_registry() {
  static PartitionerRegistry r("partitioner");
  return r;
}

static void check_assignment(const Graph& g, const std::vector<int32_t>& a, int parts, const std::string& who) {
  if (a.size() != static_cast<size_t>(g.num_nodes)) throw Error(who + ": wrong assignment length");
  std::vector<int64_t> cnt(static_cast<size_t>(parts), 0);
  for (int32_t p : a) {
    if (p < 0 || p >= parts) throw Error(fmt::format("{}: part id {} outside [0, {})", who, p, parts));
    ++cnt[p];
  }
  if (g.num_nodes >= parts)
    for (int p = 0; p < parts; ++p)
      if (cnt[p] == 0) throw Error(fmt::format("{}: part {} is empty; use fewer parts or another partitioner", who, p));
}

// Part of the cache key: bump it when a partitioner's output changes for the same inputs, so no
// run reads an assignment an older build wrote (2: the random partitioner draws from mlsys::Rng).
constexpr uint64_t kCacheVersion = 2;

std::vector<int32_t> partition_cached(const Graph& g, const std::string& name, const PartitionParams& p,
                                      const std::string& cache_dir, bool* from_cache) {
  if (from_cache) *from_cache = false;
  if (p.parts < 1) throw ConfigError("gnn.parts must be >= 1");
  if (p.parts > g.num_nodes) throw ConfigError(fmt::format("gnn.parts={} exceeds the {} nodes", p.parts, g.num_nodes));
  if (p.parts == 1) return std::vector<int32_t>(static_cast<size_t>(g.num_nodes), 0);
  auto part = partitioner_registry().create(name);
  fs::path file;
  if (!cache_dir.empty()) {
    // Portable (XXH3) rather than std::hash, so a shared cache folder keys alike on every machine.
    const uint64_t name_key = content_hash64(name + "|" + p.objective);
    uint64_t key = derive_seed(g.fingerprint(), name_key,
                               derive_seed(static_cast<uint64_t>(p.parts), p.seed), kCacheVersion);
    file = fs::path(cache_dir) / "partitions" / fmt::format("{}-{}-p{}-{:016x}.part", g.name, name, p.parts, key);
    if (fs::exists(file)) {
      std::string raw = read_file(file);
      if (raw.size() == static_cast<size_t>(g.num_nodes) * 4) {
        std::vector<int32_t> a(static_cast<size_t>(g.num_nodes));
        std::memcpy(a.data(), raw.data(), raw.size());
        try {
          check_assignment(g, a, p.parts, file.string());
          if (from_cache) *from_cache = true;
          log::info("partition: reused {}", file.string());
          return a;
        } catch (const Error&) {
        }
      }
      log::warn("partition: ignoring corrupt cache file {}", file.string());
    }
  }
  std::vector<int32_t> a = part->partition(g, p);
  check_assignment(g, a, p.parts, "partitioner '" + name + "'");
  if (!file.empty()) {
    try {
      write_file_atomic(file, std::string_view(reinterpret_cast<const char*>(a.data()), a.size() * 4));
    } catch (const Error& e) {
      log::warn("partition: cannot cache ({})", e.what());
    }
  }
  return a;
}

}  // namespace mlsys::gnn
