#pragma once
// Link model for single-machine experiments (inproc backend): each message is charged a MODELED
// time latency + bytes / bandwidth on its sender's link, by link class. Ranks are grouped into
// nodes of comm.link_ranks_per_node consecutive ranks (0 = all ranks on one node); messages inside
// a node use comm.link_preset, messages between nodes comm.link_inter_preset. A rank's messages
// are serialized on its link (one NIC/port per rank; in the order comm.link_schedule gives,
// link_queue.hpp), so the modeled time of an all-to-all is the sum over the rank's outgoing messages. Modeled seconds are accumulated in
// CommStats::modeled_seconds, never mixed with measured time; with comm.link_sleep the sender
// also sleeps that long, so measured time shows the modeled behaviour too.
#include <cstddef>
#include <string>
#include <vector>

#include "core/comm/comm_options.hpp"

namespace mlsys::comm {

struct LinkClass {
  std::string name;
  double latency_us;      // one-way, per message
  double bandwidth_gbps;  // GB/s (1e9 bytes/s) per direction, effective
  std::string description;
};

// pcie4, nvlink, ethernet25, infiniband100 (numbers and sources in the .cpp and docs).
const std::vector<LinkClass>& link_presets();
const LinkClass& link_preset(const std::string& name);  // ConfigError listing the valid names
std::vector<std::string> link_preset_names();

class LinkModel {
 public:
  LinkModel() = default;
  explicit LinkModel(const CommOptions& options);
  bool enabled() const { return enabled_; }
  bool sleeps() const { return sleep_; }
  // Modeled seconds for one message of `bytes` from src to dst (0 when disabled or src == dst).
  double message_seconds(int src, int dst, size_t bytes) const;
  const LinkClass& intra() const { return intra_; }
  const LinkClass& inter() const { return inter_; }
  int ranks_per_node() const { return ranks_per_node_; }

 private:
  bool enabled_ = false;
  bool sleep_ = false;
  int ranks_per_node_ = 0;
  LinkClass intra_, inter_;
};

}  // namespace mlsys::comm
