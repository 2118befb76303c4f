#pragma once
// Shared by the trained prior kinds: the device a prior is built on and the training options a
// prior spec asks for.
#include "core/util/error.hpp"
#include "core/util/random.hpp"
#include "dataopt/prior/prior_kind.hpp"
#include "dataopt/train/fit.hpp"

namespace mlsys::dataopt {

inline DeviceContext& prior_device(const PriorBuildContext& ctx) {
  if (!ctx.device) throw Error("prior build context has no device");
  return *ctx.device;
}

inline FitOptions prior_fit_options(const PriorSpec& s, const PriorBuildContext& ctx, AugmentOptions augment) {
  FitOptions fo;
  fo.epochs = s.epochs;
  fo.lr = s.lr;
  fo.batch = s.batch;
  fo.seed = derive_seed(ctx.seed, 2);
  fo.augment = augment;
  return fo;
}

}  // namespace mlsys::dataopt
