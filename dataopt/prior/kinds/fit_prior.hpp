#pragma once
// Shared by the trained prior kinds: the training options a prior spec asks for.
#include "dataopt/prior/prior_kind.hpp"
#include "dataopt/train/fit.hpp"

namespace mlsys::dataopt {

inline FitOptions prior_fit_options(const PriorSpec& s, const PriorBuildContext& ctx, AugmentOptions augment) {
  FitOptions fo;
  fo.epochs = s.epochs;
  fo.lr = s.lr;
  fo.batch = s.batch;
  fo.seed = ctx.seed + 2;
  fo.augment = augment;
  return fo;
}

}  // namespace mlsys::dataopt
