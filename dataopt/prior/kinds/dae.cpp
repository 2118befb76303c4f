// A self-supervised prior: a denoising autoencoder (encoder = the architecture, linear decoder)
// trained on unlabeled images the pool does not hold (target rows, or another dataset by path).
#include "dataopt/prior/kinds/fit_prior.hpp"
#include "dataopt/prior/prior_kind.hpp"

namespace mlsys::dataopt {

namespace {

class Dae final : public PriorKind {
 public:
  Prior build(const PriorSpec& s, const PriorBuildContext& ctx) const override {
    const ImageSet data = prior_training_set(s, ctx, false);
    Prior p;
    p.name = s.name;
    p.kind = "dae";
    p.about = "denoising autoencoder " + s.arch + " on " + describe_training_set(s, data) + " (unlabeled)";
    p.net = Network::build(prior_device(ctx), s.arch, data.geometry(), ctx.seed);
    p.net.add_head(data.dim(), derive_seed(ctx.seed, 1));
    fit_denoiser(p.net, data.images(), prior_fit_options(s, ctx, {1, false, 0.3}));
    return p;
  }
};

const bool registered = prior_kind_registry().add(
    "dae", "Denoising autoencoder encoder trained on unlabeled images the pool does not hold",
    [] { return std::make_unique<Dae>(); });

}  // namespace

}  // namespace mlsys::dataopt
