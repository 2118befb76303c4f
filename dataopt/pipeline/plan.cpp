#include "dataopt/pipeline/plan.hpp"

#include <algorithm>
#include <cmath>

#include "core/util/random.hpp"

namespace mlsys::dataopt {

std::pair<int64_t, int64_t> Plan::shard(int k) const {
  const int64_t K = participants();
  return {pool_size * k / K, pool_size * (k + 1) / K};
}

std::vector<int64_t> Plan::alignment_rows() const {
  const auto m = std::clamp<int64_t>(std::llround(align_fraction * static_cast<double>(pool_size)), 2, pool_size);
  Rng rng(derive_seed(seed, 0x5e7));
  std::vector<int64_t> p = rng.permutation(pool_size);
  p.resize(static_cast<size_t>(m));
  std::sort(p.begin(), p.end());
  return p;
}

}  // namespace mlsys::dataopt
