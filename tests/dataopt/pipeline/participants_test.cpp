#include <doctest/doctest.h>

#include "tests/common/test_util.hpp"
#include "tests/dataopt/fixtures.hpp"
#include "core/comm/factory.hpp"
#include "core/util/error.hpp"
#include "dataopt/data/npy.hpp"
#include "dataopt/pipeline/optimized_dataset.hpp"
#include "dataopt/pipeline/participants.hpp"
#include "dataopt/pipeline/priors.hpp"

using namespace mlsys;
using namespace mlsys::dataopt;

namespace {

DataSource tiny_source() { return test_fixtures::synthetic_source(700); }

Plan tiny_plan(const std::filesystem::path& root) {
  Plan p;
  p.priors = parse_prior_specs({YAML::Load(R"([
    {name: sup, kind: supervised, arch: "mlp:24", rows: [0, 200], epochs: 1},
    {name: dae, kind: dae, arch: "mlp:12", rows: [200, 300], epochs: 1},
    {name: rnd, kind: random, arch: "cnn:2:10"}])"), "test"});
  p.pool_begin = 400;
  p.pool_size = 300;
  p.align_fraction = 0.1;
  p.common_dim = 8;
  p.priors_dir = root / "priors";
  p.dataset_dir = root / "opt";
  return p;
}

ParticipantReport run(const Plan& plan, const DataSource& src, int ranks) {
  ParticipantReport rep;
  CommOptions co;
  co.timeout_s = 60;
  comm::run_inproc(ranks, co, [&](comm::Communicator& c) {
    ParticipantReport r = run_participants(c, plan, src, "");
    if (c.rank() == 0) rep = r;
  });
  return rep;
}

}  // namespace

TEST_CASE("participant phase: inproc ranks give the same targets as one rank") {
  test::TempDir dir("part");
  DataSource src = tiny_source();
  Plan plan = tiny_plan(dir.path());
  ParticipantReport one = run(plan, src, 1);
  OptimizedDataset a = read_optimized(plan.dataset_dir);
  CHECK(a.images.rows == 300);
  CHECK(a.targets.cols == 8);
  CHECK(a.targets_unaligned.rows == 300);
  CHECK(one.alignment_rows == 30);
  for (int ranks : {2, 3}) {
    Plan p2 = plan;
    p2.dataset_dir = dir / ("opt" + std::to_string(ranks));
    ParticipantReport r = run(p2, src, ranks);
    OptimizedDataset b = read_optimized(p2.dataset_dir);
    CHECK(b.targets.v == a.targets.v);
    CHECK(b.images.v == a.images.v);
    CHECK(r.reference == one.reference);
    CHECK(r.uniformity == one.uniformity);
  }
  // Alignment reduces the error against the reference on S for every non-reference participant.
  for (size_t k = 0; k < one.names.size(); ++k)
    if (static_cast<int>(k) != one.reference) CHECK(one.mse_after[k] < one.mse_before[k]);
  // The reference override picks by name.
  Plan p3 = plan;
  p3.reference = "dae";
  p3.dataset_dir = dir / "opt-ref";
  CHECK(run(p3, src, 1).reference == 1);
  p3.reference = "nope";
  CHECK_THROWS_AS(run(p3, src, 1), ConfigError);
}

TEST_CASE("optimized dataset round trip and error paths") {
  test::TempDir dir("optds");
  Shard s;
  s.images = Matrix(3, 4, 0.25f);
  s.targets = Matrix(3, 2, 1.0f);
  s.index = {0, 1, 2};
  write_shard(dir.path(), 0, s);
  Json mf = Json::object();
  mf["format"] = "mlsys-coopt-optimized";
  mf["geometry"] = Json(Json::Array{Json(1), Json(2), Json(2)});
  mf["common_dim"] = 2;
  Json parts = Json::array();
  parts.push_back(Json(Json::Object{{"name", Json("a")}, {"rows", Json(3)}}));
  mf["participants"] = parts;
  write_manifest(dir.path(), mf);
  OptimizedDataset d = read_optimized(dir.path());
  CHECK(d.images.v == s.images.v);
  CHECK(d.targets.v == s.targets.v);
  CHECK(d.targets_unaligned.rows == 0);
  CHECK(d.index == s.index);
  mf["common_dim"] = 5;
  write_manifest(dir.path(), mf);
  CHECK_THROWS_WITH_AS(read_optimized(dir.path()), doctest::Contains("targets.npy: shape does not match"), InputError);
  test::TempDir empty("optempty");
  CHECK_THROWS_WITH_AS(read_optimized(empty.path()), doctest::Contains("manifest.json missing"), InputError);
}

TEST_CASE("priors are cached and retrained only when their spec changes") {
  test::TempDir dir("cache");
  DataSource src = tiny_source();
  Plan plan = tiny_plan(dir.path());
  PriorBuildContext ctx = build_context(plan, src, 0, "");
  PriorStatus st;
  Prior a = obtain_prior(plan, 0, ctx, &st);
  CHECK(st.trained);
  Prior b = obtain_prior(plan, 0, ctx, &st);
  CHECK_FALSE(st.trained);
  Matrix x(2, 784, 0.3f);
  CHECK(a.embed(x, {}).v == b.embed(x, {}).v);
  plan.priors[0].epochs = 2;
  obtain_prior(plan, 0, ctx, &st);
  CHECK(st.trained);
}
