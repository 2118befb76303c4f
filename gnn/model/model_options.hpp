#pragma once
// The model settings (`gnn.model.*`), declared once and nested into the gnn section; Model reads
// them directly.
#include <string>

#include "core/config/schema.hpp"

namespace mlsys::gnn {

struct ModelOptions {
  std::string arch = "gcn";  // a registered architecture (gnn/model/arch/)
  int layers = 2;
  int hidden = 16;
  int heads = 4;  // gat
  double dropout = 0.5;
  bool layer_norm = false;
  bool residual = false;
  bool aggregate_first = false;   // gcn/sage: exchange every layer's input (Sylvie) instead of the narrower side
  bool precompute_first = false;  // aggregate the raw features once (layer 0 needs no exchange)
};

// The block nested as `model` into the gnn section.
const config::Section<ModelOptions>& model_section();

// Layer 0 reads A_hat X computed once before training (gnn.model.precompute_first, where the
// architecture allows it: Architecture::precomputable_first).
bool precomputes_first(const ModelOptions& o);

}  // namespace mlsys::gnn
