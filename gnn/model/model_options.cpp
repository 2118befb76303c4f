#include "gnn/model/model_options.hpp"

namespace mlsys::gnn {

const config::Section<ModelOptions>& model_section() {
  using O = ModelOptions;
  static const config::Section<O> s("model", "The GNN", [](auto& s) {
    s.field("arch", &O::arch, "Model").choices({"gcn", "sage", "gat"});
    s.field("layers", &O::layers, "Number of graph layers").range(1, 64);
    s.field("hidden", &O::hidden, "Hidden size (per head for GAT)").range(1, 65536);
    s.field("heads", &O::heads, "GAT attention heads (hidden layers; the output layer has 1)").range(1, 64);
    s.field("dropout", &O::dropout, "Dropout on every layer's input").range(0, 0.99);
    s.field("layer_norm", &O::layer_norm, "LayerNorm after every hidden layer");
    s.field("residual", &O::residual, "Residual connections between hidden layers of equal width");
    s.field("aggregate_first", &O::aggregate_first,
            "GCN/SAGE: always exchange and aggregate a layer's input before its weights (as Sylvie); false = exchange the narrower of input and output");
    s.field("precompute_first", &O::precompute_first,
            "GCN only: aggregate the raw features once so layer 0 needs no exchange (dropout then applies after aggregation); ignored, with a warning, for SAGE and GAT");
  });
  return s;
}

bool precomputes_first(const ModelOptions& o) { return o.precompute_first && o.arch == "gcn"; }

}  // namespace mlsys::gnn
