#pragma once
// Everything the participant phase needs to know, resolved from the config once.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/config/schema.hpp"
#include "dataopt/prior/prior_kind.hpp"

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

// The align keys, declared once; coopt_section() nests them under "align".
const config::Section<AlignOptions>& align_section();

struct Plan {
  std::vector<PriorSpec> priors;  // participant k holds priors[k] and shard k
  int64_t pool_begin = 0, pool_size = 0;  // pool D = train rows [pool_begin, pool_begin + pool_size)
  AlignOptions align;
  uint64_t seed = 1;             // S, projections, prior initializations
  std::filesystem::path priors_dir;
  std::filesystem::path dataset_dir;  // where the optimized dataset is written
  bool write_unaligned = true;        // also store T = identity targets (coopt.write_unaligned)
  std::filesystem::path digits_csv;   // priors with dataset: digits ("" = none given)
  SimclrOptions simclr;               // simclr priors

  int participants() const { return static_cast<int>(priors.size()); }
  // Pool indices [begin, end) of shard k: contiguous, sizes differ by at most one.
  std::pair<int64_t, int64_t> shard(int k) const;
  // Sorted pool indices of the alignment set S (seeded).
  std::vector<int64_t> alignment_rows() const;
};

}  // namespace mlsys::dataopt
