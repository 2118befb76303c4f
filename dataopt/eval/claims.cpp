#include "dataopt/eval/claims.hpp"

#include <fmt/format.h>

#include "core/util/error.hpp"

namespace mlsys::dataopt {

const std::vector<Claim>& comparison_claims() {
  // The paper's mechanism (alignment makes the participants' targets one consistent space) and the
  // self-supervised baseline's sanity check (training on the pool beats the untrained network).
  static const std::vector<Claim> claims{{"aligned_beats_unaligned", "coopt", "coopt_noalign"},
                                         {"simclr_beats_random", "simclr", "random"}};
  return claims;
}

ClaimVerdict judge_claim(const std::vector<double>& better, const std::vector<double>& worse, double min_gain) {
  if (better.size() != worse.size()) throw Error("judge_claim: the two methods have different seed counts");
  ClaimVerdict v;
  for (size_t i = 0; i < better.size(); ++i) v.gains.push_back(100 * (better[i] - worse[i]));
  v.gain = mean_sd(v.gains);
  const int seeds = static_cast<int>(v.gains.size());
  if (seeds < kClaimMinSeeds) {
    v.reason = fmt::format("{} seed(s): a claim needs at least {} (set coopt.eval.seeds)", seeds, kClaimMinSeeds);
  } else if (v.gain.mean < min_gain) {
    v.reason = fmt::format("mean gain {:+.2f} points is below the required {:.2f} (coopt.eval.claim_margin)", v.gain.mean,
                           min_gain);
  } else if (v.gain.mean <= v.gain.sd) {
    v.reason = fmt::format("mean gain {:+.2f} points is within its sd over seeds ({:.2f})", v.gain.mean, v.gain.sd);
  } else {
    v.holds = true;
    v.reason = fmt::format("mean gain {:+.2f} points >= {:.2f} and above its sd over seeds ({:.2f})", v.gain.mean, min_gain,
                           v.gain.sd);
  }
  return v;
}

}  // namespace mlsys::dataopt
