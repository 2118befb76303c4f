#pragma once
// The `gnn:` config section of `mlsys train-gnn`. Defaults = the quickstart demo (a small SBM).
// The graph, model, halo and staleness settings are blocks declared beside the code that reads them and
// nested here under `graph.`, `model.`, `halo.` and `staleness.`.
#include <cstdint>
#include <string>
#include <vector>

#include "core/config/schema.hpp"
#include "gnn/graph/graph_options.hpp"
#include "gnn/halo/halo_options.hpp"
#include "gnn/model/model_options.hpp"
#include "gnn/train/staleness_options.hpp"

namespace mlsys::gnn {

struct GnnOptions {
  std::string mode = "train";  // train | convert | partition
  GraphOptions graph;

  // ---- partitioning ----
  int parts = 2;                      // workers; >1 runs that many inproc ranks unless comm says otherwise
  std::string partitioner = "metis";  // registry: metis, random, contiguous
  std::string metis_objective = "volume";  // volume | cut
  bool partition_cache = true;

  ModelOptions model;

  // ---- optimisation ----
  std::string optimizer = "adam";  // adam | adamw
  double lr = 0.01;
  double weight_decay = 5e-4;
  bool decay_first_layer_only = false;  // Kipf & Welling regularize only the first layer
  std::string lr_schedule = "constant";  // registry: core/nn/lr_schedule.hpp (per epoch)
  int epochs = 100;
  int eval_every = 1;

  // ---- Sylvie ----
  int fwd_bits = 1;      // forward halo features: a width of quant::unbiased_widths()
  int bwd_bits = 1;      // backward halo gradients
  bool pipeline = true;  // staleness-1 halo exchange
  HaloOptions halo;
  StalenessOptions staleness;

  // ---- outputs ----
  int checkpoint_every = 0;  // epochs; 0 = only at the end and on SIGINT
  std::string resume;        // checkpoint file to resume from
  int trace_epochs = 3;      // epochs recorded in trace.json (0 = none)
  bool report_partitions = true;
};

const config::Section<GnnOptions>& gnn_section();

}  // namespace mlsys::gnn
