#include <algorithm>
#include <cmath>
#include <map>

#include "core/io/csv.hpp"
#include "core/util/error.hpp"
#include "core/util/json.hpp"
#include "core/util/strings.hpp"
#include "sched/workload/traces/fields.hpp"
#include "sched/workload/traces/openb_nodes.hpp"
#include "sim/cluster/cluster_options.hpp"
#include "core/util/fs.hpp"

namespace mlsys::sim {
namespace {

// Limits far above any real cluster: a count beyond them is a typo, refused before it is allocated.
constexpr int64_t kMaxNodes = 10'000'000;
constexpr int64_t kMaxCount = kMaxNodes;
constexpr int64_t kMaxGpusPerNode = 1024;

int scaled(int64_t n, double scale) {
  const double v = std::max(1.0, std::round(static_cast<double>(n) * scale));
  if (v > static_cast<double>(kMaxNodes))
    throw ConfigError("the cluster would have " + format_number(v) + " nodes (" + std::to_string(n) + " x scale " +
                      format_number(scale) + "); at most " + std::to_string(kMaxNodes) + " are supported");
  return static_cast<int>(v);
}

int type_index(ClusterSpec& s, const std::string& type) {
  auto it = std::find(s.gpu_types.begin(), s.gpu_types.end(), type);
  if (it != s.gpu_types.end()) return static_cast<int>(it - s.gpu_types.begin());
  s.gpu_types.push_back(type);
  return static_cast<int>(s.gpu_types.size()) - 1;
}

void add_nodes(ClusterSpec& s, const ClusterOptions& o, int count, int gpus, int type, std::vector<int>* into) {
  if (static_cast<int64_t>(s.nodes.size()) + count > kMaxNodes)
    throw ConfigError("the cluster would have more than " + std::to_string(kMaxNodes) + " nodes; check the node counts");
  for (int i = 0; i < count; ++i) {
    sched::NodeSpec n;
    int idx = static_cast<int>(s.nodes.size());
    n.name = "n" + std::to_string(idx);
    n.rack = idx / std::max(1, o.nodes_per_rack);
    n.spine = n.rack / std::max(1, o.racks_per_spine);
    n.gpus = gpus;
    n.gpu_type = type;
    n.cpu_milli = o.cpu_milli;
    n.memory_mib = o.memory_mib;
    if (into) into->push_back(idx);
    s.nodes.push_back(n);
  }
}

// A whole-number field of the current row (cluster files hold counts and sizes), in [0, max].
int64_t num(const CsvReader& in, int c, int64_t max = kMaxCount) {
  std::string_view v = in.field(static_cast<size_t>(c));
  if (c >= static_cast<int>(in.fields().size())) throw InputError(in.where() + ": missing field " + std::to_string(c + 1));
  const std::string& name = static_cast<size_t>(c) < in.names().size() ? in.names()[c] : std::string();
  auto d = workload::parse_double(v);
  if (!d) throw InputError(in.where(c + 1) + ": field '" + name + "' = '" + std::string(v) + "' is not a number");
  if (*d < 0 || *d > static_cast<double>(max))
    throw InputError(in.where(c + 1) + ": field '" + name + "' = '" + std::string(v) + "' must be in [0, " +
                     std::to_string(max) + "]");
  return static_cast<int64_t>(*d);
}

std::string need_path(const ClusterOptions& o) {
  if (o.path.empty()) throw ConfigError("sim.cluster.path is required for cluster kind '" + o.kind + "'");
  require_input(o.path, "sim.cluster.path", InputKind::File, "the node file for cluster kind '" + o.kind + "'");
  return o.path;
}

}  // namespace

ClusterSpec build_cluster(const ClusterOptions& o, const std::vector<std::string>& trace_vcs) {
  ClusterSpec s;
  s.gpu_types.clear();
  s.links = o.links;
  std::string partition = o.partition;
  if (o.kind == "uniform") {
    add_nodes(s, o, scaled(o.nodes, o.scale), o.gpus_per_node, type_index(s, o.gpu_type), nullptr);
  } else if (o.kind == "philly") {
    // Helios' Philly setup: each VC on its own nodes (VC node counts file), 8 GPUs per node.
    const std::string path = need_path(o);
    CsvReader in(path);
    in.read_header();
    const int c_vc = in.require("vc"), c_n = in.require("node num");
    std::map<std::string, int> count;
    std::vector<std::string> order;
    while (in.next()) {
      if (c_vc >= static_cast<int>(in.fields().size())) throw InputError(in.where() + ": missing vc");
      std::string vc(trim(in.field(c_vc)));
      count[vc] = static_cast<int>(num(in, c_n));
      order.push_back(vc);
    }
    std::vector<std::string> vcs = trace_vcs.empty() ? order : trace_vcs;
    int type = type_index(s, o.gpu_type);
    for (const auto& vc : vcs) {
      VcSpec v;
      v.name = vc;
      int n = count.count(vc) ? count[vc] : o.default_vc_nodes;
      add_nodes(s, o, scaled(n, o.scale), o.gpus_per_node, type, &v.nodes);
      v.quota_gpus = static_cast<int>(v.nodes.size()) * o.gpus_per_node;
      s.vcs.push_back(v);
    }
    if (partition == "auto") partition = "hard";
  } else if (o.kind == "openb") {
    // Alibaba openb node list: sn,cpu_milli,memory_mib,gpu,model.
    const std::string path = need_path(o);
    const auto list = workload::read_openb_nodes(path);
    int copies = scaled(1, o.scale);
    for (int k = 0; k < copies; ++k)
      for (const auto& e : list) {
        sched::NodeSpec n;
        int idx = static_cast<int>(s.nodes.size());
        n.name = e.name + (k ? "#" + std::to_string(k) : "");
        n.rack = idx / std::max(1, o.nodes_per_rack);
        n.spine = n.rack / std::max(1, o.racks_per_spine);
        n.cpu_milli = e.cpu_milli;
        n.memory_mib = e.memory_mib;
        n.gpus = e.gpus;
        n.gpu_type = type_index(s, e.gpu_model.empty() ? "none" : e.gpu_model);
        s.nodes.push_back(n);
      }
  } else if (o.kind == "tiresias") {
    // Tiresias cluster spec: num_switch,num_node_p_switch,num_gpu_p_node,num_cpu_p_node,mem_p_node.
    const std::string path = need_path(o);
    CsvReader in(path);
    in.read_header();
    const int c_sw = in.require("num_switch"), c_per = in.require("num_node_p_switch"), c_gpus = in.require("num_gpu_p_node"),
              c_cpus = in.require("num_cpu_p_node"), c_mem = in.require("mem_p_node");
    if (!in.next()) throw InputError(path + ": expected a header and one row");
    int sw = static_cast<int>(num(in, c_sw));
    int per = static_cast<int>(num(in, c_per));
    int gpus = static_cast<int>(num(in, c_gpus, kMaxGpusPerNode));
    int64_t cpus = num(in, c_cpus, int64_t{1} << 30);
    int64_t mem = num(in, c_mem, int64_t{1} << 40);
    int type = type_index(s, o.gpu_type);
    sw = scaled(sw, o.scale);
    if (static_cast<int64_t>(sw) * per > kMaxNodes)
      throw InputError(path + ": " + std::to_string(sw) + " switches x " + std::to_string(per) +
                       " nodes per switch is more than the " + std::to_string(kMaxNodes) + " nodes supported");
    for (int k = 0; k < sw; ++k)
      for (int i = 0; i < per; ++i) {
        sched::NodeSpec n;
        n.name = "s" + std::to_string(k) + "n" + std::to_string(i);
        n.rack = k;
        n.spine = 0;
        n.gpus = gpus;
        n.gpu_type = type;
        n.cpu_milli = cpus * 1000;
        n.memory_mib = mem * 1024;
        s.nodes.push_back(n);
      }
  } else if (o.kind == "yaml") {
    config::YamlValue v = o.topology;
    if (!o.path.empty()) {
      try {
        v = config::YamlValue{YAML::LoadFile(o.path), o.path};
      } catch (const YAML::Exception& e) {
        throw ConfigError(o.path + ": " + e.what());
      }
    }
    if (!v.node || v.node.IsNull()) throw ConfigError("sim.cluster.kind is yaml but neither sim.cluster.path nor sim.cluster.topology is set");
    s = parse_topology(v, o.links);
    if (o.scale != 1) throw ConfigError("sim.cluster.scale applies to generated clusters, not a YAML topology");
    if (partition == "auto") partition = s.hard_partition ? "hard" : "shared";
  } else {
    throw ConfigError("unknown sim.cluster.kind '" + o.kind + "'; valid: uniform, yaml, philly, openb, tiresias");
  }
  if (s.gpu_types.empty()) s.gpu_types.push_back(o.gpu_type);
  if (partition == "auto") partition = "shared";
  s.hard_partition = partition == "hard";
  if (o.borrowing) s.borrowing = true;
  // Quotas from the options (shared pool).
  if (o.vcs.size() != o.vc_quotas.size())
    throw ConfigError("sim.cluster.vcs and sim.cluster.vc_quotas must have the same length");
  for (size_t i = 0; i < o.vcs.size(); ++i) {
    int k = s.vc_index(o.vcs[i]);
    if (k < 0) {
      s.vcs.push_back(VcSpec{o.vcs[i], o.vc_quotas[i], {}});
    } else {
      s.vcs[k].quota_gpus = o.vc_quotas[i];
    }
  }
  for (const auto& vc : trace_vcs)
    if (s.vc_index(vc) < 0) {
      if (s.hard_partition)
        throw ConfigError("trace VC '" + vc + "' has no nodes in the hard-partitioned cluster; add it to the topology or use partition: shared");
      s.vcs.push_back(VcSpec{vc, -1, {}});
    }
  if (s.nodes.empty()) throw ConfigError("the cluster has no nodes");
  return s;
}

}  // namespace mlsys::sim
