// A prior saved earlier by mlsys (`mlsys coopt priors` or any run's priors/ folder).
#include "core/util/error.hpp"
#include "dataopt/prior/kinds/fit_prior.hpp"

namespace mlsys::dataopt {

namespace {

class File final : public PriorKind {
 public:
  Prior build(const PriorSpec& s, const PriorBuildContext& ctx) const override {
    if (s.path.empty()) throw ConfigError(s.where + ": file prior '" + s.name + "' needs path: <file.prior>");
    Prior p = load_prior(prior_device(ctx), s.path);
    if (p.net.input().h != ctx.height || p.net.input().w != ctx.width)
      throw InputError(s.path + ": prior expects " + std::to_string(p.net.input().h) + "x" + std::to_string(p.net.input().w) +
                       " images but the dataset has " + std::to_string(ctx.height) + "x" + std::to_string(ctx.width));
    p.name = s.name;
    return p;
  }
  bool cacheable() const override { return false; }
};

const bool registered = prior_kind_registry().add("file", "A prior saved by mlsys (.prior file)",
                                                  [] { return std::make_unique<File>(); });

}  // namespace

}  // namespace mlsys::dataopt
