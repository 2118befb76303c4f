#include "dataopt/train/simclr_options.hpp"

namespace mlsys::dataopt {

const config::Section<SimclrOptions>& simclr_section() {
  static const config::Section<SimclrOptions> s("simclr", "SimCLR contrastive training", [](auto& s) {
    s.field("temperature", &SimclrOptions::temperature, "NT-Xent temperature").range(0.01, 10);
    s.field("hidden", &SimclrOptions::hidden, "Hidden width of the projection head").range(1, 65536);
    s.field("dim", &SimclrOptions::dim, "Output width of the projection head (where the loss is taken)").range(1, 65536);
    s.field("crop", &SimclrOptions::crop, "Random resized crop: smallest crop area as a fraction of the image (1: no crop)")
        .range(0.05, 1);
    s.field("jitter", &SimclrOptions::jitter, "Brightness/contrast jitter strength of each view (0: none)").range(0, 1);
    s.field("lr", &SimclrOptions::lr, "Adam learning rate").range(1e-6, 1);
    s.field("batch", &SimclrOptions::batch, "Images per step (2 views each; the rest of the batch are the negatives)")
        .range(2, 65536);
  });
  return s;
}

}  // namespace mlsys::dataopt
