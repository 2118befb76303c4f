#include "gnn/model/model_options.hpp"

#include "gnn/model/architecture.hpp"

namespace mlsys::gnn {

const config::Section<ModelOptions>& model_section() {
  using O = ModelOptions;
  static const config::Section<O> s("model", "The GNN", [](auto& s) {
    s.field("arch", &O::arch, "Model architecture")
        .choices_described([] { return architecture_registry().choices(); });
    s.field("layers", &O::layers, "Number of graph layers").range(1, 64);
    s.field("hidden", &O::hidden, "Hidden size (per head for GAT)").range(1, 65536);
    s.field("heads", &O::heads, "GAT attention heads (hidden layers; the output layer has 1)").range(1, 64);
    s.field("dropout", &O::dropout, "Dropout on every layer's input").range(0, 0.99);
    s.field("layer_norm", &O::layer_norm, "LayerNorm after every hidden layer");
    s.field("residual", &O::residual, "Residual connections between hidden layers of equal width");
    s.field("aggregate_first", &O::aggregate_first,
            "GCN/SAGE: always exchange and aggregate a layer's input before its weights (as Sylvie); false = exchange the narrower of input and output");
    s.field("precompute_first", &O::precompute_first,
            "Aggregate the raw features once so layer 0 needs no exchange (dropout then applies after aggregation); architectures whose first layer allows it (gcn), ignored with a warning for the others");
  });
  return s;
}

bool precomputes_first(const ModelOptions& o) { return o.precompute_first && architecture(o.arch)->precomputable_first(); }

}  // namespace mlsys::gnn
