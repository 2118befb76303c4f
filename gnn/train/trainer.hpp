#pragma once
// Distributed full-graph training: one worker per partition (inproc threads, MPI ranks or GPUs),
// each owning its partition's nodes; per-epoch records, checkpoints, trace.
#include <functional>
#include <string>
#include <vector>

#include "core/comm/comm_options.hpp"
#include "core/runtime/trace_writer.hpp"
#include "core/tensor/device_options.hpp"
#include "gnn/graph/graph.hpp"
#include "gnn/options.hpp"
#include "gnn/train/epoch_record.hpp"
#include "gnn/train/staleness.hpp"

namespace mlsys::gnn {

struct TrainResult {
  std::vector<EpochRecord> epochs;
  std::vector<Switch> switches;
  double best_val = -1, test_at_best_val = -1;
  double final_train = -1, final_val = -1, final_test = -1;
  bool interrupted = false;
  std::string checkpoint;  // last checkpoint written ("" if none)
  int checkpoint_epoch = 0;  // the epoch `checkpoint` resumes at
  int failed_checkpoints = 0;  // checkpoints that could not be written (each a warning)
  // Why the run's last checkpoint (at its end, or at a stop) was not written; "" when it was. The
  // run is then incomplete: `checkpoint` is an older one, or none.
  std::string last_checkpoint_error;
  int start_epoch = 0;
};

struct TrainSetup {
  GnnOptions gnn;
  CommOptions comm;
  DeviceOptions device;
  uint64_t seed = 1;
  int threads = 1;
  std::string out_dir;          // checkpoints go here ("" = none)
  TraceWriter* trace = nullptr;  // first gnn.trace_epochs epochs
  bool progress = false;
  // In-process workers (inproc threads) share one copy of the parameters and rank 0's optimizer
  // state instead of a replica each; the run is bit-identical either way (tests compare), only
  // memory differs. Separate processes (MPI, NCCL) always hold a replica each.
  bool share_model = true;
  // Called once in each process when every worker of the process has built its inputs: the
  // graph's features are not read after it (train-gnn frees them there).
  std::function<void()> inputs_built;
  // Called on rank 0 after every epoch (e.g. progress bars, tests).
  std::function<void(const EpochRecord&)> on_epoch;
};

// `owner`: partition of every node (size = nodes; all zero for one worker).
TrainResult train(const Graph& g, const std::vector<int32_t>& owner, const TrainSetup& setup);

}  // namespace mlsys::gnn
