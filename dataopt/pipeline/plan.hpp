#pragma once
// Everything the participant phase needs to know, resolved from the config once.
#include <cstdint>
#include <string>
#include <vector>

#include "core/config/schema.hpp"
#include "dataopt/prior/prior_kind.hpp"
#include "dataopt/train/simclr_options.hpp"

namespace mlsys::dataopt {

// How the participants' targets are aligned and weighted (the coopt.align.* keys).
struct AlignOptions {
  double fraction = 0.025;       // |S| / |D|
  int64_t common_dim = 64;       // n
  double ridge = 1e-2;           // relative ridge of the alignment fit
  std::string map = "ridge";     // ridge | identity (T = I for everyone: the no-alignment control)
  bool intercept = false;        // alignment y = a T + c on S-centered embeddings (false: y = a T, as published)
  std::string weighting = "loo_r2";  // student loss weight per participant: loo_r2 | none
  double uniformity_t = 2.0;
  bool center_uniformity = false;  // center embeddings on S before the score (documented deviation)
  std::string reference;         // "" = best uniformity
};

// The align keys, declared once; plan_section() nests them under "align".
const config::Section<AlignOptions>& align_section();

// What the participant phase works from. The settings are coopt keys (declared once by
// plan_section(), which coopt_section() nests unprefixed), so the resolved `coopt:` section holds
// the plan; make_setup then fills the rest (parsed priors, seed) and resolves the folders.
struct Plan {
  std::string digits_csv;  // priors with dataset: digits read this file ("" = none given)
  int64_t pool_begin = 4000, pool_size = 2000;  // pool D = train rows [pool_begin, pool_begin + pool_size)
  // Test images of the probe (0: the whole test file). Not read by the participants: a plan key only
  // because a nested section's keys form one block, and coopt.test_size sits between pool.* and
  // priors in docs/CONFIG.md and in every run's config.yaml.
  int64_t test_size = 1000;
  config::YamlValue prior_list;  // coopt.priors as written (empty -> default_priors_yaml())
  std::string priors_dir;        // "" -> <out>/priors
  std::string dataset_dir;       // where the optimized dataset is written; "" -> <out>/optimized
  AlignOptions align;
  bool write_unaligned = true;  // also store T = identity targets
  SimclrOptions simclr;         // simclr priors and the simclr student baseline

  // Set by make_setup, not keys:
  std::vector<PriorSpec> priors;  // participant k holds priors[k] and shard k (parsed prior_list)
  uint64_t seed = 1;              // S, projections, prior initializations (run.seed)

  int participants() const { return static_cast<int>(priors.size()); }
  // Pool indices [begin, end) of shard k: contiguous, sizes differ by at most one.
  std::pair<int64_t, int64_t> shard(int k) const;
  // Sorted pool indices of the alignment set S (seeded).
  std::vector<int64_t> alignment_rows() const;
};

// The plan's keys (coopt.data.digits_csv, pool.*, test_size, priors, priors_dir, dataset_dir,
// align.*, write_unaligned, simclr.*), declared once; coopt_section() nests them unprefixed.
const config::Section<Plan>& plan_section();

}  // namespace mlsys::dataopt
