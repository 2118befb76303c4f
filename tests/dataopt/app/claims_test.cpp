// The comparison's claims on generated images (configs/coopt/claims_synthetic.yaml), through the
// real binary: aligned beats unaligned and SimCLR beats random init over 3 seeds, on a task where
// raw pixels are far from a ceiling; and each claim fails for a deliberately broken variant, so a
// pass cannot come from the check itself.
#include <doctest/doctest.h>

#include "core/util/json.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;

namespace {

std::string claims_config() { return (test::source_dir() / "configs/coopt/claims_synthetic.yaml").string(); }

Json run_compare(const std::filesystem::path& out, const std::string& extra) {
  auto r = test::run_mlsys("coopt compare " + claims_config() + " --out " + out.string() + extra);
  INFO(r.out);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return Json::parse(test::read_text(out / "summary.json"));
}

}  // namespace

TEST_CASE("coopt claims: aligned beats unaligned and SimCLR beats random init, broken variants fail") {
  test::TempDir dir("claims");
  Json sum = run_compare(dir / "ok", "");
  Json& claims = sum["claims"];
  for (const char* name : {"aligned_beats_unaligned", "simclr_beats_random"}) {
    INFO(name << ": " << claims[name]["reason"].as_string());
    CHECK(claims[name]["gain_points"].as_array().size() == 3);
    CHECK(claims[name]["holds"].as_bool());
  }
  // A comparison against a baseline at its ceiling could not fail: raw pixels must leave room.
  for (Json& point : sum["results"]["raw"].as_array()) CHECK(point["few"].as_number() < 0.85);

  // Alignment disabled (T = I for every participant): the "aligned" row is the unaligned one.
  const std::string reuse = " --set coopt.priors_dir=" + (dir / "ok/priors").string();
  Json no_fit = run_compare(dir / "identity",
                            reuse + " --set coopt.align.map=identity --set 'coopt.eval.methods=[coopt, coopt_noalign]'");
  INFO(no_fit["claims"]["aligned_beats_unaligned"]["reason"].as_string());
  CHECK_FALSE(no_fit["claims"]["aligned_beats_unaligned"]["holds"].as_bool());
  CHECK(no_fit["claims"].find("simclr_beats_random") == nullptr);

  // SimCLR that cannot learn (learning rate 1e-6): no better than the untrained network it starts from.
  Json frozen =
      run_compare(dir / "frozen", reuse + " --set coopt.simclr.lr=1e-6 --set 'coopt.eval.methods=[random, simclr]'");
  INFO(frozen["claims"]["simclr_beats_random"]["reason"].as_string());
  CHECK_FALSE(frozen["claims"]["simclr_beats_random"]["holds"].as_bool());
}
