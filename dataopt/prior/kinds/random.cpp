// A random-init network: the weakest prior (its embedding is a random nonlinear feature map).
#include "dataopt/prior/kinds/fit_prior.hpp"

namespace mlsys::dataopt {

namespace {

class RandomInit final : public PriorKind {
 public:
  Prior build(const PriorSpec& s, const PriorBuildContext& ctx) const override {
    Prior p;
    p.name = s.name;
    p.kind = "random";
    p.about = "random-init " + s.arch + " (seeded, untrained)";
    p.net = Network::build(prior_device(ctx), s.arch, {ctx.channels, ctx.height, ctx.width}, ctx.seed);
    return p;
  }
};

const bool registered = prior_kind_registry().add("random", "Randomly initialized network (no training)",
                                                  [] { return std::make_unique<RandomInit>(); });

}  // namespace

}  // namespace mlsys::dataopt
