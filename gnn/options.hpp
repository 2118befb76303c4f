#pragma once
// The `gnn:` config section of `mlsys train-gnn`. Defaults = the quickstart demo (a small SBM).
#include <cstdint>
#include <string>
#include <vector>

#include "core/config/schema.hpp"

namespace mlsys::gnn {

struct GnnOptions {
  std::string mode = "train";  // train | convert | partition

  // ---- graph ----
  std::string graph_source = "sbm";  // registry: file, sbm, rmat, reddit-like, products-like
  std::string graph_path;            // for source=file: text folder, OGB folder or .mlsg
  std::string ogb_scheme;
  bool binary_cache = true;          // text/OGB: write .mlsg to the cache on first load, map it later
  std::string cache_dir;             // "" -> $MLSYS_CACHE_DIR or ~/.cache/mlsys
  std::string convert_out;           // mode=convert: output .mlsg
  int64_t nodes = 3000;
  int classes = 6;
  double avg_degree = 12;
  double homophily = 0.6;
  int64_t features = 32;
  double feature_signal = 0.15;
  double train_fraction = 0.1;
  double val_fraction = 0.2;
  int rmat_scale = 14;
  int64_t rmat_edges = 0;
  double preset_scale = 1.0;   // reddit-like/products-like: fraction of the nodes to keep
  double preset_degree_scale = 1.0;  // ...and of the average degree
  bool normalize_features = false;   // divide every feature row by its L1 norm (Kipf & Welling)

  // ---- partitioning ----
  int parts = 2;                      // workers; >1 runs that many inproc ranks unless comm says otherwise
  std::string partitioner = "metis";  // registry: metis, random, contiguous
  std::string metis_objective = "volume";  // volume | cut
  bool partition_cache = true;

  // ---- model ----
  std::string model = "gcn";  // gcn | sage | gat
  int layers = 2;
  int hidden = 16;
  int heads = 4;              // gat
  double dropout = 0.5;
  bool layer_norm = false;
  bool residual = false;
  bool aggregate_first = false;   // gcn/sage: exchange every layer's input (Sylvie) instead of the narrower side
  bool precompute_first = false;  // aggregate the raw features once (layer 0 needs no exchange)

  // ---- optimisation ----
  std::string optimizer = "adam";  // adam | adamw
  double lr = 0.01;
  double weight_decay = 5e-4;
  bool decay_first_layer_only = false;  // Kipf & Welling regularize only the first layer
  int epochs = 100;
  int eval_every = 1;

  // ---- Sylvie ----
  int fwd_bits = 1;      // forward halo features: 1, 2, 4, 8, 32
  int bwd_bits = 1;      // backward halo gradients
  bool pipeline = true;  // staleness-1 halo exchange
  int staleness_bound = 0;   // K: fresh synchronous epoch at least every K epochs (0 = never forced)
  bool adaptive = false;     // Bounded Staleness Adaptor's adaptive mode
  int adaptive_window = 5;   // epochs in the loss-trend window
  double adaptive_tolerance = 0.002;  // relative smoothed-loss change counted as a stall

  // ---- outputs ----
  int checkpoint_every = 0;  // epochs; 0 = only at the end and on SIGINT
  std::string resume;        // checkpoint file to resume from
  int trace_epochs = 3;      // epochs recorded in trace.json (0 = none)
  bool report_partitions = true;
};

const config::Section<GnnOptions>& gnn_section();

}  // namespace mlsys::gnn
