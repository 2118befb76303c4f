#include "gnn/train/staleness_options.hpp"

namespace mlsys::gnn {

const config::Section<StalenessOptions>& staleness_section() {
  using O = StalenessOptions;
  static const config::Section<O> s("staleness", "Bounded Staleness Adaptor", [](auto& s) {
    s.field("bound", &O::bound, "Bounded staleness K: a fresh synchronous epoch at least every K epochs (0 = off)")
        .range(0, 1e6);
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
