// A supervised prior: an architecture trained with cross-entropy on labeled images the pool never
// contains: a disjoint row range of the target dataset (fine or coarse labels), or the sklearn
// digits (a different dataset), resized to the target geometry.
#include "core/util/error.hpp"
#include "dataopt/data/csv.hpp"
#include "dataopt/data/synthetic.hpp"
#include "dataopt/prior/prior_kind.hpp"
#include "dataopt/prior/kinds/fit_prior.hpp"

namespace mlsys::dataopt {

namespace {

class Supervised final : public PriorKind {
 public:
  Prior build(const PriorSpec& s, const PriorBuildContext& ctx) const override {
    ImageSet data;
    if (s.dataset == "digits") {
      if (ctx.digits_csv.empty() || !std::filesystem::exists(ctx.digits_csv))
        throw InputError(s.where + ": prior '" + s.name + "' needs the sklearn digits CSV (" +
                         (ctx.digits_csv.empty() ? std::string("set MLSYS_DATA_DIR or coopt.digits_csv") : ctx.digits_csv.string()) + ")");
      data = resize_images(read_csv_images(ctx.digits_csv), ctx.height, ctx.width);
    } else {
      if (s.rows_end <= s.rows_begin) throw ConfigError(s.where + ": supervised prior '" + s.name + "' needs rows: [begin, end]");
      data = ctx.data->train_rows(s.rows_begin, s.rows_end);
    }
    std::vector<int32_t> labels = s.labels == "coarse" ? coarse_labels(data.labels, data.classes) : data.labels;
    int classes = 0;
    for (int32_t l : labels) classes = std::max(classes, l + 1);
    Prior p;
    p.name = s.name;
    p.kind = "supervised";
    p.about = "supervised " + s.arch + " on " + std::to_string(data.n) + " images of " +
              (s.dataset == "digits" ? std::string("sklearn digits") : "train rows " + std::to_string(s.rows_begin) + "-" + std::to_string(s.rows_end)) +
              " (" + s.labels + " labels, " + std::to_string(classes) + " classes)";
    p.net = Network::build(prior_device(ctx), s.arch, data.geometry(), ctx.seed);
    p.net.add_head(classes, derive_seed(ctx.seed, 1));
    fit_classifier(p.net, data.images(), labels, prior_fit_options(s, ctx, {1, false, 0.0}));
    return p;
  }
};

const bool registered = prior_kind_registry().add(
    "supervised", "Classifier trained on labeled data disjoint from the pool (fine/coarse labels or another dataset)",
    [] { return std::make_unique<Supervised>(); });

}  // namespace

}  // namespace mlsys::dataopt
