// A self-supervised prior: SimCLR (contrastive, NT-Xent over two augmented views) on unlabeled
// images the pool does not hold (another dataset by path, or target rows), with the settings of
// the coopt.simclr block.
#include <fmt/format.h>

#include "dataopt/prior/kinds/fit_prior.hpp"
#include "dataopt/prior/prior_kind.hpp"

namespace mlsys::dataopt {

namespace {

class Simclr final : public PriorKind {
 public:
  Prior build(const PriorSpec& s, const PriorBuildContext& ctx) const override {
    const ImageSet data = prior_training_set(s, ctx, false);
    Prior p;
    p.name = s.name;
    p.kind = "simclr";
    p.about = "SimCLR " + s.arch + " on " + describe_training_set(s, data) + " (unlabeled, temperature " +
              fmt::format("{:g}", ctx.simclr.temperature) + ")";
    p.net = Network::build(prior_device(ctx), s.arch, data.geometry(), ctx.seed);
    FitOptions fo = prior_fit_options(s, ctx, simclr_augment(ctx.simclr, {1, false, 0.0}));
    fit_contrastive(p.net, data.images(), fo, ctx.simclr);
    return p;
  }
  std::string settings(const PriorBuildContext& ctx) const override {
    const SimclrOptions& c = ctx.simclr;
    return fmt::format("simclr t={:g} head={}x{} crop={:g} jitter={:g}", c.temperature, c.hidden, c.dim, c.crop, c.jitter);
  }
};

const bool registered = prior_kind_registry().add(
    "simclr", "SimCLR encoder (contrastive, coopt.simclr settings) trained on unlabeled images the pool does not hold",
    [] { return std::make_unique<Simclr>(); });

}  // namespace

}  // namespace mlsys::dataopt
