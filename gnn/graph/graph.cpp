#include "gnn/graph/graph.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>

#include "core/util/error.hpp"
#include "core/util/number_parse.hpp"

namespace mlsys::gnn {

namespace {
// Rules for the values every loader's graph holds (core/util/number_parse.hpp). Features are
// float32 data: NaN or infinity is never a feature (a NaN feature trains to chance accuracy without
// an error). Split bytes name a Split enumerator (0 none, 1 train, 2 val, 3 test); any other byte
// would silently leave the node out of every set.
constexpr RealRule kFeature{"feature", -kFloat32Max, kFloat32Max};
constexpr IntRule kSplitByte{"split", 0, 3};
}  // namespace

int64_t Graph::count(Split s) const {
  int64_t n = 0;
  for (uint8_t v : split) n += v == static_cast<uint8_t>(s);
  return n;
}

int64_t Graph::feature_entries() const {
  return sparse_features() ? static_cast<int64_t>(feature_values.size()) : static_cast<int64_t>(features.size());
}

int64_t Graph::feature_bytes() const {
  if (!sparse_features()) return static_cast<int64_t>(features.size() * sizeof(float));
  return static_cast<int64_t>(feature_indptr.size() * 8 + feature_indices.size() * 4 + feature_values.size() * 4);
}

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdULL;
}

void Graph::release_features() {
  features = {};
  feature_indptr = {};
  feature_indices = {};
  feature_values = {};
}

uint64_t Graph::fingerprint() const {
  uint64_t h = mix(0x1234567ULL, static_cast<uint64_t>(num_nodes));
  h = mix(h, static_cast<uint64_t>(num_edges()));
  h = mix(h, static_cast<uint64_t>(feature_dim));
  // Sampling a bounded number of entries keeps this O(1e6) even for 100M-edge graphs while still
  // telling apart graphs of the same size (every row pointer is hashed).
  for (int64_t v = 0; v <= num_nodes; ++v) h = mix(h, static_cast<uint64_t>(indptr[v]));
  size_t step = std::max<size_t>(1, indices.size() / (1u << 20));
  for (size_t i = 0; i < indices.size(); i += step) h = mix(h, static_cast<uint64_t>(indices[i]));
  return h;
}

void Graph::validate(const std::string& source) const {
  if (num_nodes <= 0) throw InputError(source + ": graph has no nodes");
  if (indptr.size() != static_cast<size_t>(num_nodes + 1) || indptr[0] != 0 ||
      indptr[num_nodes] != static_cast<int64_t>(indices.size()))
    throw InputError(source + ": malformed row pointers");
  for (int64_t v = 0; v < num_nodes; ++v)
    if (indptr[v + 1] < indptr[v]) throw InputError(fmt::format("{}: row pointers decrease at node {}", source, v));
  for (int32_t u : indices)
    if (u < 0 || u >= num_nodes) throw InputError(fmt::format("{}: neighbour id {} out of range [0, {})", source, u, num_nodes));
  if (!features.empty() && features.size() != static_cast<size_t>(num_nodes * feature_dim))
    throw InputError(source + ": feature matrix size does not match nodes x features");
  if (const int64_t i = first_refused(features.data(), features.size(), kFeature); i >= 0)
    throw InputError(number_error(fmt::format("{}: node {} feature {}", source, i / feature_dim, i % feature_dim),
                                  fmt::format("{}", features[static_cast<size_t>(i)]), kFeature, NumberProblem::kNotFinite));
  if (sparse_features()) {
    if (!features.empty()) throw InputError(source + ": features are both dense and sparse");
    if (feature_indptr.size() != static_cast<size_t>(num_nodes + 1) || feature_indptr[0] != 0 ||
        feature_indptr[num_nodes] != static_cast<int64_t>(feature_indices.size()) || feature_values.size() != feature_indices.size())
      throw InputError(source + ": malformed sparse feature rows");
    for (int64_t v = 0; v < num_nodes; ++v) {
      if (feature_indptr[v + 1] < feature_indptr[v]) throw InputError(fmt::format("{}: feature row pointers decrease at node {}", source, v));
      for (int64_t e = feature_indptr[v]; e < feature_indptr[v + 1]; ++e)
        if (feature_indices[e] < 0 || feature_indices[e] >= feature_dim || (e > feature_indptr[v] && feature_indices[e] <= feature_indices[e - 1]))
          throw InputError(fmt::format("{}: feature column {} of node {} out of range [0, {}) or out of order", source,
                                       feature_indices[e], v, feature_dim));
    }
    if (const int64_t e = first_refused(feature_values.data(), feature_values.size(), kFeature); e >= 0)
      throw InputError(number_error(fmt::format("{}: sparse feature entry {}", source, e),
                                    fmt::format("{}", feature_values[static_cast<size_t>(e)]), kFeature,
                                    NumberProblem::kNotFinite));
  }
  if (labels.size() != static_cast<size_t>(num_nodes)) throw InputError(source + ": need one label per node");
  for (int64_t v = 0; v < num_nodes; ++v)
    if (labels[v] < -1 || labels[v] >= num_classes)
      throw InputError(fmt::format("{}: label {} of node {} outside [0, {})", source, labels[v], v, num_classes));
  if (split.size() != static_cast<size_t>(num_nodes)) throw InputError(source + ": need one split entry per node");
  if (const int64_t v = first_refused(split.data(), split.size(), kSplitByte); v >= 0)
    throw InputError(number_error(fmt::format("{}: node {}", source, v), std::to_string(split[static_cast<size_t>(v)]),
                                  kSplitByte, NumberProblem::kTooLarge));
  if (multi_label() && multi_labels.size() != static_cast<size_t>(num_nodes * num_classes))
    throw InputError(source + ": multi-label matrix size does not match nodes x classes");
}

void build_symmetric_csr(int64_t n, const std::vector<std::pair<int32_t, int32_t>>& edges, Graph& g) {
  std::vector<int64_t> deg(static_cast<size_t>(n) + 1, 0);
  for (auto [u, v] : edges) {
    if (u == v) continue;
    ++deg[static_cast<size_t>(u) + 1];
    ++deg[static_cast<size_t>(v) + 1];
  }
  for (int64_t i = 0; i < n; ++i) deg[i + 1] += deg[i];
  std::vector<int32_t> idx(static_cast<size_t>(deg[n]));
  {
    std::vector<std::atomic<int64_t>> pos(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) pos[i].store(deg[i], std::memory_order_relaxed);
    const int64_t m = static_cast<int64_t>(edges.size());
#pragma omp parallel for schedule(static)
    for (int64_t e = 0; e < m; ++e) {
      auto [u, v] = edges[e];
      if (u == v) continue;
      idx[pos[u].fetch_add(1, std::memory_order_relaxed)] = v;
      idx[pos[v].fetch_add(1, std::memory_order_relaxed)] = u;
    }
  }
  // Sort and deduplicate every row (sorting makes the atomic fill order irrelevant).
  std::vector<int64_t> kept(static_cast<size_t>(n) + 1, 0);
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t v = 0; v < n; ++v) {
    auto b = idx.begin() + deg[v], e = idx.begin() + deg[v + 1];
    std::sort(b, e);
    kept[v + 1] = std::unique(b, e) - b;
  }
  for (int64_t i = 0; i < n; ++i) kept[i + 1] += kept[i];
  std::vector<int32_t> out(static_cast<size_t>(kept[n]));
#pragma omp parallel for schedule(dynamic, 1024)
  for (int64_t v = 0; v < n; ++v)
    std::copy(idx.begin() + deg[v], idx.begin() + deg[v] + (kept[v + 1] - kept[v]), out.begin() + kept[v]);
  g.num_nodes = n;
  g.indptr = Array<int64_t>(std::move(kept));
  g.indices = Array<int32_t>(std::move(out));
}

}  // namespace mlsys::gnn
