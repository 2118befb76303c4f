#include "gnn/train/staleness_options.hpp"

#include "core/quant/codec.hpp"

namespace mlsys::gnn {

const config::Section<StalenessOptions>& staleness_section() {
  using O = StalenessOptions;
  static const config::Section<O> s("staleness", "Bounded Staleness Adaptor", [](auto& s) {
    s.field("bound", &O::bound, "Bounded staleness K: a fresh synchronous epoch at least every K epochs (0 = off)")
        .range(0, 1e6);
    s.field("fresh_bits", &O::fresh_bits,
            "Width of a pipelined run's fresh (synchronous) epochs, forward and backward, when wider than the epoch's own; 0 = the epoch's own")
        .choices_described([] {
          std::vector<config::Choice> out{{"0", "the epoch's own width"}};
          for (const config::Choice& c : quant::unbiased_width_choices()) out.push_back(c);
          return out;
        });
    s.field("adaptive", &O::adaptive, "Adaptive mode: raise bits / force sync when the smoothed loss stalls, lower when it falls");
    s.field("window", &O::window, "Adaptive mode: epochs in the loss-trend window").range(2, 1000);
    s.field("tolerance", &O::tolerance, "Adaptive mode: relative smoothed-loss decrease per epoch below which training counts as stalled")
        .range(0, 1);
    s.field("cooldown", &O::cooldown, "Adaptive mode: epochs after a switch in which no further switch happens").range(1, 1e6);
    s.field("hold", &O::hold,
            "Adaptive mode: epochs an escalated width is kept before it may relax (a width that stalls twice is not tried again)")
        .range(1, 1e6);
  });
  return s;
}

}  // namespace mlsys::gnn
