#include "core/comm/link_model.hpp"

#include "core/util/error.hpp"
#include "core/util/strings.hpp"

namespace mlsys::comm {

// Effective (achievable) numbers, not signalling rates; see docs/BENCHMARKS.md.
const std::vector<LinkClass>& link_presets() {
  static const std::vector<LinkClass> presets = {
      {"pcie4", 5.0, 24.0, "PCIe 4.0 x16 between GPUs of one node: ~24 GB/s of 31.5 GB/s raw, ~5 us"},
      {"nvlink", 2.0, 250.0, "NVLink 3 (A100, 12 links): ~250 GB/s of 300 GB/s per direction, ~2 us"},
      {"ethernet25", 25.0, 2.9, "25 Gb/s Ethernet (TCP) between nodes: ~2.9 GB/s of 3.125 GB/s, ~25 us"},
      {"infiniband100", 2.0, 12.0, "100 Gb/s EDR InfiniBand between nodes: ~12 GB/s of 12.5 GB/s, ~2 us"},
  };
  return presets;
}

std::vector<std::string> link_preset_names() {
  std::vector<std::string> out;
  for (auto& p : link_presets()) out.push_back(p.name);
  return out;
}

const LinkClass& link_preset(const std::string& name) {
  for (auto& p : link_presets())
    if (p.name == name) return p;
  throw ConfigError("unknown link preset '" + name + "'; valid: " + join(link_preset_names(), ", "));
}

LinkModel::LinkModel(const CommOptions& o)
    : enabled_(o.link_model),
      sleep_(o.link_model && o.link_sleep),
      ranks_per_node_(o.link_ranks_per_node),
      intra_(link_preset(o.link_preset)),
      inter_(link_preset(o.link_inter_preset)) {
  // The latency/bandwidth overrides apply to the intra-node class (the only one without nodes).
  if (o.link_latency_us > 0) intra_.latency_us = o.link_latency_us;
  if (o.link_bandwidth_gbps > 0) intra_.bandwidth_gbps = o.link_bandwidth_gbps;
}

double LinkModel::message_seconds(int src, int dst, size_t bytes) const {
  if (!enabled_ || src == dst) return 0.0;
  bool same_node = ranks_per_node_ <= 0 || src / ranks_per_node_ == dst / ranks_per_node_;
  const LinkClass& l = same_node ? intra_ : inter_;
  return l.latency_us * 1e-6 + double(bytes) / (l.bandwidth_gbps * 1e9);
}

}  // namespace mlsys::comm
