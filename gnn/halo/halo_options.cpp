#include "gnn/halo/halo_options.hpp"

namespace mlsys::gnn {

const config::Section<HaloOptions>& halo_section() {
  using O = HaloOptions;
  static const config::Section<O> s("halo", "What the halo exchange quantizes and how", [](auto& s) {
    s.field("cache_input", &O::cache_input,
            "Fetch the input layer's halo features once at full precision and keep them (layer 0 then exchanges nothing); false: quantize them every epoch like the hidden layers");
    s.field("range_values", &O::range_values,
            "Values per quantization range (min and scale) within a block; 0 = one range per row").range(0, 1 << 20);
    s.field("error_feedback", &O::error_feedback,
            "Error feedback: add what quantization lost on each sent row to the same row next epoch (per layer and direction)");
    s.field("fp32_warmup", &O::fp32_warmup, "Epochs at the start that exchange fp32 before the configured widths apply").range(0, 1e6);
    s.field("smoothing", &O::smoothing,
            "Pipelined epochs use a moving average of the arrived halo rows (features and gradients): m = s*m + (1-s)*arrived; 0 = off (PipeGCN uses 0.95)")
        .range(0, 0.999);
    s.field("smooth_fresh", &O::smooth_fresh,
            "With smoothing: synchronous epochs also use the moving average their rows have just joined (false: their rows as they arrived)");
  });
  return s;
}

}  // namespace mlsys::gnn
