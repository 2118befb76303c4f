// The YAML topology format:
//   gpu_types: [v100, p100]            # optional; types named by nodes are added
//   links: {intra_node_gbps: 300, intra_rack_gbps: 100, inter_rack_gbps: 25, inter_spine_gbps: 25}
//   partition: shared | hard
//   borrowing: false
//   racks:
//     - {spine: 0, nodes: [{count: 4, gpus: 8, gpu_type: v100, cpu_milli: 64000, memory_mib: 262144, vc: a}]}
//   vcs:
//     - {name: a, quota: 16}             # shared pool quota (GPUs); hard partitions use node `vc:`
#include <algorithm>

#include "core/util/error.hpp"
#include "sim/cluster/cluster_options.hpp"

namespace mlsys::sim {
namespace {

template <class T>
T get(const config::YamlValue& v, const YAML::Node& n, const char* key, T dflt) {
  const YAML::Node x = n[key];
  if (!x) return dflt;
  try {
    return x.as<T>();
  } catch (const YAML::Exception&) {
    throw ConfigError(v.where(x) + ": '" + std::string(key) + "' has the wrong type");
  }
}

void expect_keys(const config::YamlValue& v, const YAML::Node& n, std::initializer_list<const char*> keys) {
  if (!n.IsMap()) throw ConfigError(v.where(n) + ": expected a mapping");
  for (const auto& kv : n) {
    auto k = kv.first.as<std::string>();
    if (std::none_of(keys.begin(), keys.end(), [&](const char* s) { return k == s; }))
      throw ConfigError(v.where(kv.first) + ": unknown topology key '" + k + "'");
  }
}

}  // namespace

ClusterSpec parse_topology(const config::YamlValue& v, const LinkBandwidths& links) {
  ClusterSpec s;
  s.links = links;
  const YAML::Node& root = v.node;
  expect_keys(v, root, {"gpu_types", "links", "partition", "borrowing", "racks", "vcs"});
  s.gpu_types = get<std::vector<std::string>>(v, root, "gpu_types", {});
  auto type_of = [&](const std::string& t) {
    auto it = std::find(s.gpu_types.begin(), s.gpu_types.end(), t);
    if (it != s.gpu_types.end()) return static_cast<int>(it - s.gpu_types.begin());
    s.gpu_types.push_back(t);
    return static_cast<int>(s.gpu_types.size()) - 1;
  };
  if (const auto l = root["links"]) {
    expect_keys(v, l, {"intra_node_gbps", "intra_rack_gbps", "inter_rack_gbps", "inter_spine_gbps"});
    auto gbps = [&](const char* key, double& into) {
      into = get<double>(v, l, key, into);
      if (!(into > 0) || into > 1e9) throw ConfigError(v.where(l[key]) + ": '" + std::string(key) + "' must be in (0, 1e9] Gbps");
    };
    gbps("intra_node_gbps", s.links.intra_node_gbps);
    gbps("intra_rack_gbps", s.links.intra_rack_gbps);
    gbps("inter_rack_gbps", s.links.inter_rack_gbps);
    gbps("inter_spine_gbps", s.links.inter_spine_gbps);
  }
  std::string part = get<std::string>(v, root, "partition", "shared");
  if (part != "shared" && part != "hard")
    throw ConfigError(v.where(root["partition"]) + ": partition must be shared or hard");
  s.hard_partition = part == "hard";
  s.borrowing = get<bool>(v, root, "borrowing", false);
  const YAML::Node racks = root["racks"];
  if (!racks || !racks.IsSequence() || racks.size() == 0)
    throw ConfigError(v.where(root) + ": topology needs a non-empty 'racks' list");
  int rack = 0;
  for (const auto& r : racks) {
    expect_keys(v, r, {"spine", "nodes", "name"});
    int spine = get<int>(v, r, "spine", 0);
    const YAML::Node nodes = r["nodes"];
    if (!nodes || !nodes.IsSequence()) throw ConfigError(v.where(r) + ": rack needs a 'nodes' list");
    for (const auto& g : nodes) {
      expect_keys(v, g, {"count", "gpus", "gpu_type", "cpu_milli", "memory_mib", "vc"});
      int count = get<int>(v, g, "count", 1);
      int gpus = get<int>(v, g, "gpus", 8);
      if (count < 1 || gpus < 0 || gpus > 64) throw ConfigError(v.where(g) + ": count must be >= 1 and gpus 0..64");
      int type = type_of(get<std::string>(v, g, "gpu_type", s.gpu_types.empty() ? "gpu" : s.gpu_types[0]));
      std::string vc = get<std::string>(v, g, "vc", "");
      for (int i = 0; i < count; ++i) {
        sched::NodeSpec n;
        n.name = "r" + std::to_string(rack) + "n" + std::to_string(s.nodes.size());
        n.rack = rack;
        n.spine = spine;
        n.gpus = gpus;
        n.gpu_type = type;
        n.cpu_milli = get<int64_t>(v, g, "cpu_milli", 0);
        n.memory_mib = get<int64_t>(v, g, "memory_mib", 0);
        if (!vc.empty()) {
          int k = s.vc_index(vc);
          if (k < 0) {
            s.vcs.push_back(VcSpec{vc, 0, {}});
            k = static_cast<int>(s.vcs.size()) - 1;
          }
          s.vcs[k].nodes.push_back(static_cast<int>(s.nodes.size()));
          s.vcs[k].quota_gpus += gpus;
        }
        s.nodes.push_back(n);
      }
    }
    ++rack;
  }
  if (const auto vcs = root["vcs"]) {
    if (!vcs.IsSequence()) throw ConfigError(v.where(vcs) + ": 'vcs' must be a list");
    for (const auto& x : vcs) {
      expect_keys(v, x, {"name", "quota"});
      std::string name = get<std::string>(v, x, "name", "");
      if (name.empty()) throw ConfigError(v.where(x) + ": a VC needs a name");
      int k = s.vc_index(name);
      if (k < 0) {
        s.vcs.push_back(VcSpec{name, -1, {}});
        k = static_cast<int>(s.vcs.size()) - 1;
      }
      s.vcs[k].quota_gpus = get<int>(v, x, "quota", s.vcs[k].quota_gpus);
    }
  }
  if (s.hard_partition)
    for (const auto& vc : s.vcs)
      if (vc.nodes.empty()) throw ConfigError(v.where(root) + ": hard partition: VC '" + vc.name + "' has no nodes (set vc: on its nodes)");
  if (s.gpu_types.empty()) s.gpu_types.push_back("gpu");
  return s;
}

}  // namespace mlsys::sim
