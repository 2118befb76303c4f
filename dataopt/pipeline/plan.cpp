#include "dataopt/pipeline/plan.hpp"

#include <algorithm>
#include <cmath>

#include "core/util/random.hpp"

namespace mlsys::dataopt {

const config::Section<AlignOptions>& align_section() {
  using A = AlignOptions;
  static const config::Section<A> s("align", "CoOpt alignment of the participants' targets", [](auto& s) {
    s.field("fraction", &A::fraction, "Size of the shared alignment set S as a fraction of D").range(0.001, 0.5);
    s.field("dim", &A::common_dim, "Common target dimension n of the random projections").range(2, 4096);
    s.field("ridge", &A::ridge, "Ridge strength of the alignment fit, relative to mean(diag(A^T A))").range(0, 1e6);
    s.field("map", &A::map, "Alignment map of each non-reference participant").choices_described([] {
      return std::vector<config::Choice>{
          {"ridge", "the ridge fit T_k on S (CoOpt)"},
          {"identity", "T = I for every participant, weight 1: no alignment in the optimized dataset (an ablation; the "
                       "negative control of the aligned-beats-unaligned claim)"}};
    });
    s.field("intercept", &A::intercept,
            "Fit the alignment with an intercept, y = a T + c on S-centered embeddings (false: y = a T as published)");
    s.field("weighting", &A::weighting,
            "Student loss weight of each participant's rows: loo_r2 (the alignment's leave-one-out R^2 on S, "
            "clamped to [0, 1]; 1 for the reference) or none")
        .choices({"loo_r2", "none"});
    s.field("t", &A::uniformity_t, "Temperature t of the uniformity score").range(0.01, 100);
    s.field("center", &A::center_uniformity,
            "Center each prior's embeddings on S before the uniformity score (false: the published raw score)");
    s.field("reference", &A::reference, "Reference prior name (\"\": the best uniformity score on S)");
  });
  return s;
}

const config::Section<Plan>& plan_section() {
  static const config::Section<Plan> s("plan", "CoOpt participant phase: pool, priors, folders, alignment", [](auto& s) {
    s.field("data.digits_csv", &Plan::digits_csv,
            "sklearn digits CSV read by priors with dataset: digits (\"\": none; such a prior is then an error)");
    s.field("pool.begin", &Plan::pool_begin, "First train-file row of the unlabeled pool D").min(0);
    s.field("pool.size", &Plan::pool_size, "Images in the pool D (split into one contiguous shard per prior)").range(4, 1e8);
    s.field("test_size", &Plan::test_size, "Test images for the probe (0: the whole test file)").min(0);
    s.field("priors", &Plan::prior_list,
            "Participants: list of {name, kind, arch, dataset, split, label_file, rows, labels, path, epochs, lr, batch} "
            "(see docs/coopt.md); empty: the 4 quickstart priors");
    s.field("priors_dir", &Plan::priors_dir, "Cache of trained priors (\"\": <out>/priors)");
    s.field("dataset_dir", &Plan::dataset_dir, "Optimized dataset folder (\"\": <out>/optimized)");
    s.nest("align", &Plan::align, align_section());
    s.field("write_unaligned", &Plan::write_unaligned, "Also write T = identity targets (the no-alignment ablation)");
    s.nest("simclr", &Plan::simclr, simclr_section());
  });
  return s;
}

std::pair<int64_t, int64_t> Plan::shard(int k) const {
  const int64_t K = participants();
  return {pool_size * k / K, pool_size * (k + 1) / K};
}

std::vector<int64_t> Plan::alignment_rows() const {
  const auto m = std::clamp<int64_t>(std::llround(align.fraction * static_cast<double>(pool_size)), 2, pool_size);
  Rng rng(derive_seed(seed, 0x5e7));
  std::vector<int64_t> p = rng.permutation(pool_size);
  p.resize(static_cast<size_t>(m));
  std::sort(p.begin(), p.end());
  return p;
}

}  // namespace mlsys::dataopt
