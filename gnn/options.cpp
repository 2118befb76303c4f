#include "gnn/options.hpp"

#include "gnn/command.hpp"

#include "core/quant/codec.hpp"

#include "gnn/graph/source.hpp"
#include "gnn/partition/partitioner.hpp"

namespace mlsys::gnn {

const config::Section<GnnOptions>& gnn_section() {
  using O = GnnOptions;
  static const config::Section<O> s("gnn", "Sylvie distributed full-graph GNN training", [](auto& s) {
    s.field("mode", &O::mode, "What to run (the first word after `train-gnn`)")
        .choices_described([] { return mode_choices(train_gnn_command()); });
    s.field("graph.source", &O::graph_source, "Where the graph comes from")
        .choices_described([] { return graph_source_registry().choices(); });
    s.field("graph.path", &O::graph_path, "source=file: text graph folder, OGB node-property folder or .mlsg file");
    s.field("graph.ogb_scheme", &O::ogb_scheme, "OGB split scheme folder under split/ (\"\" = first)");
    s.field("graph.binary_cache", &O::binary_cache, "Write a binary .mlsg copy of text/OGB graphs on first load and map it later");
    s.field("graph.cache_dir", &O::cache_dir, "Cache folder for binary graphs and partitions (\"\" = $MLSYS_CACHE_DIR or ~/.cache/mlsys)");
    s.field("graph.convert_out", &O::convert_out, "mode=convert: output .mlsg path (\"\" = <out>/<graph>.mlsg)");
    s.field("graph.nodes", &O::nodes, "sbm: number of nodes").range(2, 2e9);
    s.field("graph.classes", &O::classes, "sbm/rmat: number of classes").range(1, 100000);
    s.field("graph.avg_degree", &O::avg_degree, "sbm: average degree (directed entries per node)").range(0.01, 1e5);
    s.field("graph.homophily", &O::homophily, "sbm: fraction of edges inside a class").range(0, 1);
    s.field("graph.features", &O::features, "sbm/rmat: feature dimension").range(1, 1e6);
    s.field("graph.feature_signal", &O::feature_signal, "sbm: class-mean scale relative to unit noise").range(0, 1e3);
    s.field("graph.train_fraction", &O::train_fraction, "Generated graphs: fraction of nodes in the train split").range(0.0001, 1);
    s.field("graph.val_fraction", &O::val_fraction, "Generated graphs: fraction in the val split (rest is test)").range(0, 1);
    s.field("graph.rmat_scale", &O::rmat_scale, "rmat: 2^scale nodes").range(1, 30);
    s.field("graph.rmat_edges", &O::rmat_edges, "rmat: generated edges before symmetrizing (0 = 16 per node)").range(0, 1e11);
    s.field("graph.preset_scale", &O::preset_scale, "reddit-like/products-like: fraction of the published node count").range(1e-6, 1);
    s.field("graph.preset_degree_scale", &O::preset_degree_scale, "reddit-like/products-like: fraction of the published average degree").range(1e-6, 1);

    s.field("graph.normalize_features", &O::normalize_features, "Divide every feature row by its L1 norm (as Kipf & Welling do for Cora)");
    s.field("parts", &O::parts, "Partitions = workers (inproc: threads; mpi: must equal the rank count)").range(1, 4096);
    s.field("partitioner", &O::partitioner, "Partitioner").choices_described([] { return partitioner_registry().choices(); });
    s.field("metis_objective", &O::metis_objective, "METIS objective").choices({"volume", "cut"});
    s.field("partition_cache", &O::partition_cache, "Cache partitions on disk keyed by graph and parameters");

    s.field("model.arch", &O::model, "Model").choices({"gcn", "sage", "gat"});
    s.field("model.layers", &O::layers, "Number of graph layers").range(1, 64);
    s.field("model.hidden", &O::hidden, "Hidden size (per head for GAT)").range(1, 65536);
    s.field("model.heads", &O::heads, "GAT attention heads (hidden layers; the output layer has 1)").range(1, 64);
    s.field("model.dropout", &O::dropout, "Dropout on every layer's input").range(0, 0.99);
    s.field("model.layer_norm", &O::layer_norm, "LayerNorm after every hidden layer");
    s.field("model.residual", &O::residual, "Residual connections between hidden layers of equal width");
    s.field("model.aggregate_first", &O::aggregate_first,
            "GCN/SAGE: always exchange and aggregate a layer's input before its weights (as Sylvie); false = exchange the narrower of input and output");
    s.field("model.precompute_first", &O::precompute_first,
            "GCN only: aggregate the raw features once so layer 0 needs no exchange (dropout then applies after aggregation); ignored, with a warning, for SAGE and GAT");

    s.field("optim.name", &O::optimizer, "Optimizer").choices({"adam", "adamw"});
    s.field("optim.lr", &O::lr, "Learning rate").range(0, 10);
    s.field("optim.weight_decay", &O::weight_decay, "Weight decay (adam: L2 on the gradient; adamw: decoupled)").range(0, 10);
    s.field("optim.decay_first_layer_only", &O::decay_first_layer_only, "Apply weight decay to the first layer's weights only (Kipf & Welling)");
    s.field("epochs", &O::epochs, "Training epochs").range(1, 1e7);
    s.field("eval_every", &O::eval_every, "Evaluate train/val/test accuracy every N epochs").range(1, 1e6);

    s.field("fwd_bits", &O::fwd_bits, "Bits per value of forward halo features")
        .choices_described(quant::unbiased_width_choices);
    s.field("bwd_bits", &O::bwd_bits, "Bits per value of backward halo gradients")
        .choices_described(quant::unbiased_width_choices);
    s.field("pipeline", &O::pipeline, "Staleness-1 pipelining: use halo data received during the previous epoch");
    s.field("staleness.bound", &O::staleness_bound, "Bounded staleness K: a fresh synchronous epoch at least every K epochs (0 = off)")
        .range(0, 1e6);
    s.field("staleness.adaptive", &O::adaptive, "Adaptive mode: raise bits / force sync when the smoothed loss stalls, lower when it falls");
    s.field("staleness.window", &O::adaptive_window, "Adaptive mode: epochs in the loss-trend window").range(2, 1000);
    s.field("staleness.tolerance", &O::adaptive_tolerance, "Adaptive mode: relative smoothed-loss decrease per epoch below which training counts as stalled")
        .range(0, 1);

    s.field("checkpoint_every", &O::checkpoint_every, "Write a checkpoint every N epochs (0 = only at the end and on SIGINT)").range(0, 1e7);
    s.field("resume", &O::resume, "Checkpoint file to resume from");
    s.field("trace_epochs", &O::trace_epochs, "Epochs recorded in trace.json (Chrome trace; 0 = none)").range(0, 1000);
    s.field("report_partitions", &O::report_partitions, "Write partitions.csv (per-partition inner/halo/edges and volume)");
  });
  return s;
}

}  // namespace mlsys::gnn
