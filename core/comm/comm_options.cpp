#include "core/comm/comm_options.hpp"

#include "core/comm/backend.hpp"
#include "core/comm/link_queue.hpp"

namespace mlsys {

const config::Section<CommOptions>& comm_section() {
  static const config::Section<CommOptions> s("comm", "Communicator backend and link model", [](auto& s) {
    s.field("backend", &CommOptions::backend, "Communicator backend")
        .choices_described([] { return comm::backend_registry().choices(); });
    s.field("world_size", &CommOptions::world_size, "Number of ranks for the inproc backend").range(1, 1024);
    s.field("timeout_s", &CommOptions::timeout_s, "Seconds any wait may take before failing with the rank and operation")
        .range(0.001, 86400);
    s.field("nccl_id_dir", &CommOptions::nccl_id_dir,
            "Shared folder for exchanging the NCCL unique id without MPI (single node)");
    s.field("link_model", &CommOptions::link_model,
            "inproc only: charge each message a modeled time (latency + bytes/bandwidth), reported separately");
    s.field("link_preset", &CommOptions::link_preset, "Modeled link class")
        .choices({"pcie4", "nvlink", "ethernet25", "infiniband100"});
    s.field("link_latency_us", &CommOptions::link_latency_us, "Override the preset's latency (microseconds); 0 keeps it")
        .range(0, 1e7);
    s.field("link_bandwidth_gbps", &CommOptions::link_bandwidth_gbps,
            "Override the preset's bandwidth (GB/s); 0 keeps it")
        .range(0, 1e5);
    s.field("link_ranks_per_node", &CommOptions::link_ranks_per_node,
            "Consecutive ranks per modeled node; messages between nodes use link_inter_preset (0: one node)")
        .range(0, 1 << 20);
    s.field("link_inter_preset", &CommOptions::link_inter_preset, "Modeled link class between nodes")
        .choices({"pcie4", "nvlink", "ethernet25", "infiniband100"});
    s.field("link_sleep", &CommOptions::link_sleep,
            "Also sleep each message's modeled time, so measured time reflects the modeled links");
    s.field("link_schedule", &CommOptions::link_schedule,
            "With link_sleep: the order in which a rank's link carries its messages (urgent = operations a rank "
            "waits on now, e.g. train-gnn's gradient all-reduce; the rest, e.g. pipelined halos, can wait)")
        .choices_described([] {
          std::vector<config::Choice> out;
          for (const comm::LinkSchedule& s : comm::link_schedules()) out.push_back({s.name, s.description});
          return out;
        });
  });
  return s;
}

}  // namespace mlsys
