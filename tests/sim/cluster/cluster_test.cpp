// Cluster builders: YAML topology, Philly VC node counts, Tiresias spec, openb node list.
#include <doctest/doctest.h>

#include "core/util/error.hpp"
#include "sim/cluster/cluster_options.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
using namespace mlsys::sim;
using mlsys::test::TempDir;
using mlsys::test::write_text;

TEST_CASE("cluster: YAML topology with racks, GPU types, links and VCs") {
  TempDir t("topo");
  write_text(t / "t.yaml",
             "gpu_types: [v100]\n"
             "links: {inter_rack_gbps: 10}\n"
             "partition: hard\n"
             "racks:\n"
             "  - {spine: 0, nodes: [{count: 2, gpus: 8, vc: a}, {count: 1, gpus: 4, gpu_type: p100, vc: b}]}\n"
             "  - {spine: 1, nodes: [{count: 3, gpus: 8, cpu_milli: 64000, vc: b}]}\n");
  ClusterOptions o;
  o.kind = "yaml";
  o.path = (t / "t.yaml").string();
  auto s = build_cluster(o, {"a", "b"});
  CHECK(s.nodes.size() == 6);
  CHECK(s.total_gpus() == 2 * 8 + 4 + 3 * 8);
  CHECK(s.gpu_types == std::vector<std::string>{"v100", "p100"});
  CHECK(s.hard_partition);
  CHECK(s.links.inter_rack_gbps == 10);
  CHECK(s.links.intra_rack_gbps == 100);  // not given: the default
  REQUIRE(s.vcs.size() == 2);
  CHECK(s.vcs[1].nodes == std::vector<int>{2, 3, 4, 5});
  CHECK(s.vcs[1].quota_gpus == 28);
  CHECK(s.nodes[5].rack == 1);
  CHECK(s.nodes[5].spine == 1);
  CHECK(s.nodes[5].cpu_milli == 64000);
  auto part = partition_state(s, s.vcs[1]);
  CHECK(part.total_gpus() == 28);
  // A VC of the trace that has no nodes in a hard-partitioned cluster is an error.
  CHECK_THROWS_AS(build_cluster(o, {"a", "c"}), ConfigError);
}

TEST_CASE("cluster: Philly builder gives each VC its nodes (8 GPUs each)") {
  TempDir t("philly");
  write_text(t / "vc.csv", "vc,node num\nx,2\ny,4\n");
  ClusterOptions o;
  o.kind = "philly";
  o.path = (t / "vc.csv").string();
  o.default_vc_nodes = 1;
  auto s = build_cluster(o, {"y", "z"});
  CHECK(s.hard_partition);
  REQUIRE(s.vcs.size() == 2);
  CHECK(s.vcs[0].name == "y");
  CHECK(s.vcs[0].nodes.size() == 4);
  CHECK(s.vcs[1].nodes.size() == 1);  // z is not in the file: default_vc_nodes
  CHECK(s.total_gpus() == 40);
  o.scale = 2;
  CHECK(build_cluster(o, {"y"}).total_gpus() == 64);
}

TEST_CASE("cluster: Tiresias spec and uniform builders, shared pool quotas") {
  TempDir t("tir");
  write_text(t / "spec.csv", "num_switch,num_node_p_switch,num_gpu_p_node,num_cpu_p_node,mem_p_node\n4,8,4,32,128\n");
  ClusterOptions o;
  o.kind = "tiresias";
  o.path = (t / "spec.csv").string();
  auto s = build_cluster(o, {});
  CHECK(s.nodes.size() == 32);
  CHECK(s.total_gpus() == 128);
  CHECK(s.nodes[31].rack == 3);
  CHECK(s.nodes[0].cpu_milli == 32000);
  ClusterOptions u;
  u.nodes = 10;
  u.vcs = {"a"};
  u.vc_quotas = {24};
  auto q = build_cluster(u, {"a", "b"});
  CHECK(!q.hard_partition);
  CHECK(q.vcs[q.vc_index("a")].quota_gpus == 24);
  CHECK(q.vcs[q.vc_index("b")].quota_gpus == -1);
  u.vc_quotas = {};
  CHECK_THROWS_AS(build_cluster(u, {}), ConfigError);
}

TEST_CASE("cluster: openb node list (1,213 GPU nodes, 6,212 GPUs)") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  ClusterOptions o;
  o.kind = "openb";
  o.path = (data / "traces/alibaba_openb_v2023/openb_node_list_gpu_node.csv").string();
  auto s = build_cluster(o, {});
  CHECK(s.nodes.size() == 1213);
  CHECK(s.total_gpus() == 6212);
  CHECK(s.gpu_types.size() >= 5);
}
