#include <doctest/doctest.h>

#include <algorithm>

#include "core/util/error.hpp"
#include "dataopt/eval/claims.hpp"
#include "dataopt/options.hpp"

using namespace mlsys;
using namespace mlsys::dataopt;

TEST_CASE("a claim holds only for a gain above the margin and its own spread over at least 3 seeds") {
  // Paired accuracies: seed i of both methods shares labels and initialization.
  const std::vector<double> worse{0.60, 0.70, 0.65};
  SUBCASE("a steady gain of 3 points holds, whatever the spread of each row") {
    const ClaimVerdict v = judge_claim({0.63, 0.73, 0.68}, worse, 1.0);
    CHECK(v.holds);
    CHECK(v.gain.mean == doctest::Approx(3.0));
    CHECK(v.gain.sd == doctest::Approx(0.0).epsilon(1e-9));
    REQUIRE(v.gains.size() == 3);
  }
  SUBCASE("a gain carried by one lucky seed does not hold") {
    // +9, -1, -1 points: mean +2.33 clears the margin but not its sd (5.8).
    const ClaimVerdict v = judge_claim({0.69, 0.69, 0.64}, worse, 1.0);
    CHECK(v.gain.mean > 1.0);
    CHECK_FALSE(v.holds);
    CHECK(v.reason.find("within its sd") != std::string::npos);
  }
  SUBCASE("a steady gain below the margin does not hold") {
    const ClaimVerdict v = judge_claim({0.605, 0.705, 0.655}, worse, 1.0);
    CHECK_FALSE(v.holds);
    CHECK(v.reason.find("below the required") != std::string::npos);
  }
  SUBCASE("identical rows (a method against itself) do not hold at margin 0") {
    CHECK_FALSE(judge_claim(worse, worse, 0.0).holds);
  }
  SUBCASE("a loss does not hold") { CHECK_FALSE(judge_claim({0.55, 0.65, 0.60}, worse, 0.0).holds); }
  SUBCASE("two seeds are not enough, however large the gain") {
    const ClaimVerdict v = judge_claim({0.9, 0.9}, {0.5, 0.5}, 1.0);
    CHECK_FALSE(v.holds);
    CHECK(v.reason.find("at least 3") != std::string::npos);
  }
  SUBCASE("unpaired inputs are an error") { CHECK_THROWS_AS(judge_claim({0.6, 0.7, 0.8}, {0.6, 0.7}, 1.0), Error); }
}

TEST_CASE("the comparison's claims compare two different rows that coopt.eval.methods offers") {
  const CooptOptions defaults;
  const std::vector<std::string> methods = defaults.methods;  // the default list holds every row
  auto offered = [&](const std::string& m) { return std::find(methods.begin(), methods.end(), m) != methods.end(); };
  REQUIRE(comparison_claims().size() >= 2);
  for (const Claim& c : comparison_claims()) {
    INFO(c.name);
    CHECK(offered(c.better));
    CHECK(offered(c.worse));
    CHECK(c.better != c.worse);
  }
}
