#include "dataopt/eval/comparison_methods.hpp"

#include <stdexcept>

namespace mlsys::dataopt {

const std::vector<ComparisonMethod>& comparison_methods() {
  using A = StudentArch;
  using O = StudentObjective;
  using T = StudentTargets;
  static const std::vector<ComparisonMethod> table{
      {"raw", "raw pixels", "raw pixels", A::none, O::none, T::none, false},
      {"random", "random-init MLP student, untrained", "random-init student", A::mlp, O::none, T::none, false},
      {"simclr", "MLP student trained with SimCLR on the pool (coopt.simclr)", "SimCLR student (contrastive, same pool)",
       A::mlp, O::contrastive, T::none, false},
      {"dae", "MLP student trained as a denoising autoencoder on the pool", "denoising-AE student (same pool)", A::mlp,
       O::denoise, T::none, false},
      {"coopt", "MLP student on the optimized dataset (aligned, weighted targets)", "CoOpt aligned, MLP student", A::mlp,
       O::targets, T::aligned, true},
      {"coopt_noalign", "MLP student on the unaligned targets (T = I)", "CoOpt without alignment (T = I), MLP", A::mlp,
       O::targets, T::unaligned, false},
      {"central", "MLP student on one prior's targets for the whole pool (eval.central_prior)", "single best prior, central",
       A::mlp, O::targets, T::central, false},
      {"coopt_cnn", "CNN student on the optimized dataset", "CoOpt aligned, CNN student", A::cnn, O::targets, T::aligned,
       true},
  };
  return table;
}

const ComparisonMethod& comparison_method(const std::string& name) {
  for (const ComparisonMethod& m : comparison_methods())
    if (m.name == name) return m;
  throw std::out_of_range("no comparison method '" + name + "'");
}

std::vector<std::string> comparison_method_names() {
  std::vector<std::string> out;
  for (const ComparisonMethod& m : comparison_methods()) out.push_back(m.name);
  return out;
}

}  // namespace mlsys::dataopt
