// A supervised prior: an architecture trained with cross-entropy on labeled images the pool never
// contains: a disjoint row range of the target dataset (fine or coarse labels), or any other image
// dataset (USPS, notMNIST, the sklearn digits, a .npy with labels) resized to the target geometry.
#include "dataopt/prior/kinds/fit_prior.hpp"
#include "dataopt/prior/prior_kind.hpp"

namespace mlsys::dataopt {

namespace {

class Supervised final : public PriorKind {
 public:
  Prior build(const PriorSpec& s, const PriorBuildContext& ctx) const override {
    const ImageSet data = prior_training_set(s, ctx, true);
    std::vector<int32_t> labels = s.labels == "coarse" ? coarse_labels(data.labels, data.classes) : data.labels;
    int classes = 0;
    for (int32_t l : labels) classes = std::max(classes, l + 1);
    Prior p;
    p.name = s.name;
    p.kind = "supervised";
    p.about = "supervised " + s.arch + " on " + describe_training_set(s, data) + " (" + s.labels + " labels, " +
              std::to_string(classes) + " classes)";
    p.net = Network::build(prior_device(ctx), s.arch, data.geometry(), ctx.seed);
    p.net.add_head(classes, derive_seed(ctx.seed, 1));
    fit_classifier(p.net, data.images(), labels, prior_fit_options(s, ctx, {1, false, 0.0}));
    return p;
  }
};

const bool registered = prior_kind_registry().add(
    "supervised", "Classifier trained on labeled images the pool does not hold (target rows, or another dataset by path)",
    [] { return std::make_unique<Supervised>(); });

}  // namespace

}  // namespace mlsys::dataopt
