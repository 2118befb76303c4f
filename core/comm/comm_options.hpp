#pragma once
#include <string>

#include "core/config/schema.hpp"

namespace mlsys {

// The `comm:` section shared by commands that communicate (train-gnn, coopt).
struct CommOptions {
  std::string backend = "inproc";  // a registered backend (core/comm/backends/)
  int world_size = 1;              // ranks for the inproc backend (mpi: taken from mpirun -np)
  double timeout_s = 120;          // any wait longer than this fails naming the rank and operation
  std::string nccl_id_dir = "";    // shared folder for the NCCL unique id when running without MPI
  // Link model for inproc: charge each message latency + bytes / bandwidth (reported as modeled).
  bool link_model = false;
  std::string link_preset = "pcie4";  // pcie4 | nvlink | ethernet25 | infiniband100
  double link_latency_us = 0;         // 0: use the preset's value
  double link_bandwidth_gbps = 0;     // GB/s; 0: use the preset's value
  int link_ranks_per_node = 0;        // consecutive ranks per modeled node; 0 = all on one node
  std::string link_inter_preset = "ethernet25";  // link class between modeled nodes
  bool link_sleep = false;            // also sleep the modeled time (measured time then shows it)
  std::string link_schedule = "preempt";  // order of a link's messages with link_sleep (link_queue.hpp)
};

const config::Section<CommOptions>& comm_section();

}  // namespace mlsys
