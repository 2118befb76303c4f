// A self-supervised prior: a denoising autoencoder (encoder = the architecture, linear decoder)
// trained on unlabeled rows disjoint from the pool.
#include "core/util/error.hpp"
#include "dataopt/prior/prior_kind.hpp"
#include "dataopt/prior/kinds/fit_prior.hpp"

namespace mlsys::dataopt {

namespace {

class Dae final : public PriorKind {
 public:
  Prior build(const PriorSpec& s, const PriorBuildContext& ctx) const override {
    if (s.rows_end <= s.rows_begin) throw ConfigError(s.where + ": dae prior '" + s.name + "' needs rows: [begin, end]");
    ImageSet data = ctx.data->train_rows(s.rows_begin, s.rows_end);
    Prior p;
    p.name = s.name;
    p.kind = "dae";
    p.about = "denoising autoencoder " + s.arch + " on " + std::to_string(data.n) + " unlabeled train rows " +
              std::to_string(s.rows_begin) + "-" + std::to_string(s.rows_end);
    p.net = Network::build(prior_device(ctx), s.arch, data.geometry(), ctx.seed);
    p.net.add_head(data.dim(), derive_seed(ctx.seed, 1));
    fit_denoiser(p.net, data.images(), prior_fit_options(s, ctx, {1, false, 0.3}));
    return p;
  }
};

const bool registered = prior_kind_registry().add(
    "dae", "Denoising autoencoder encoder trained on unlabeled data disjoint from the pool",
    [] { return std::make_unique<Dae>(); });

}  // namespace

}  // namespace mlsys::dataopt
