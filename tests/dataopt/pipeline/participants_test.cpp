#include <doctest/doctest.h>

#include "tests/common/test_util.hpp"
#include "tests/dataopt/fixtures.hpp"
#include "core/comm/factory.hpp"
#include "core/process/system.hpp"
#include "core/util/error.hpp"
#include "core/util/random.hpp"
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
  p.align.fraction = 0.1;
  p.align.common_dim = 8;
  p.priors_dir = root / "priors";
  p.dataset_dir = root / "opt";
  return p;
}

ParticipantReport run(const Plan& plan, const DataSource& src, int ranks) {
  ParticipantReport rep;
  CommOptions co;
  co.timeout_s = 60;
  comm::run_inproc(ranks, co, [&](comm::Communicator& c) {
    set_thread_count(1);  // as the command does: one BLAS/OpenMP thread per rank
    DeviceContext device(Device::cpu());
    ParticipantReport r = run_participants(c, device, plan, src);
    if (c.rank() == 0) rep = r;
  });
  return rep;
}

// 2 and 3 inproc ranks write the same dataset, bit for bit, and report the same as one rank.
void same_for_more_ranks(const Plan& plan, const DataSource& src, const std::filesystem::path& dir,
                         const ParticipantReport& one, const OptimizedDataset& a) {
  for (int ranks : {2, 3}) {
    Plan p2 = plan;
    p2.dataset_dir = dir / ("opt" + std::to_string(ranks));
    ParticipantReport r = run(p2, src, ranks);
    OptimizedDataset b = read_optimized(p2.dataset_dir);
    CHECK(b.targets.to_vector<float>() == a.targets.to_vector<float>());
    CHECK(b.targets_unaligned.to_vector<float>() == a.targets_unaligned.to_vector<float>());
    CHECK(b.images.to_vector<float>() == a.images.to_vector<float>());
    CHECK(b.weight == a.weight);
    CHECK(r.reference == one.reference);
    CHECK(r.uniformity == one.uniformity);
    CHECK(r.loo_r2 == one.loo_r2);
  }
}

}  // namespace

TEST_CASE("participant phase: inproc ranks give the same targets as one rank") {
  test::TempDir dir("part");
  DataSource src = tiny_source();
  Plan plan = tiny_plan(dir.path());
  ParticipantReport one = run(plan, src, 1);
  OptimizedDataset a = read_optimized(plan.dataset_dir);
  CHECK(a.images.rows() == 300);
  CHECK(a.targets.dim(1) == 8);
  CHECK(a.targets_unaligned.rows() == 300);
  CHECK(one.alignment_rows == 30);
  same_for_more_ranks(plan, src, dir.path(), one, a);
  // Alignment reduces the error against the reference on S for every non-reference participant.
  for (size_t k = 0; k < one.names.size(); ++k)
    if (static_cast<int>(k) != one.reference) CHECK(one.mse_after[k] < one.mse_before[k]);
  // The reference override picks by name.
  Plan p3 = plan;
  p3.align.reference = "dae";
  p3.dataset_dir = dir / "opt-ref";
  CHECK(run(p3, src, 1).reference == 1);
  p3.align.reference = "nope";
  CHECK_THROWS_AS(run(p3, src, 1), ConfigError);
}

TEST_CASE("participant phase: shards embedded in slices by every rank stay bit-identical") {
  // Shards of 300 rows span three embedding chunks, so 2 and 3 ranks split every shard.
  test::TempDir dir("slices");
  DataSource src = test_fixtures::synthetic_source(1400);
  Plan plan = tiny_plan(dir.path());
  plan.pool_size = 900;
  plan.align.fraction = 0.05;
  ParticipantReport one = run(plan, src, 1);
  OptimizedDataset a = read_optimized(plan.dataset_dir);
  CHECK(a.images.rows() == 900);
  CHECK(a.weight.size() == 900);
  CHECK(a.weight.front() == static_cast<float>(one.weight[0]));
  same_for_more_ranks(plan, src, dir.path(), one, a);
  // weighting: none gives every participant weight 1.
  plan.align.weighting = "none";
  plan.dataset_dir = dir / "unweighted";
  for (double w : run(plan, src, 2).weight) CHECK(w == 1.0);
}

TEST_CASE("participant weights measure how well each participant predicts the reference") {
  // Three participants: the reference (a supervised prior with 8-d embeddings), the very same
  // network loaded from its file (a different projection of the same 8 features: an exact linear
  // map exists, n = 16 >= 8) and embeddings of pure noise (nothing to predict the reference from).
  test::TempDir dir("weights");
  DataSource src = tiny_source();
  Plan plan = tiny_plan(dir.path());
  plan.align.common_dim = 16;
  plan.priors = parse_prior_specs({YAML::Load(R"([{name: sup, kind: supervised, arch: "mlp:8", rows: [0, 200], epochs: 1}])"), "t"});
  {
    DeviceContext device(Device::cpu());
    obtain_prior(plan, 0, build_context(device, plan, src, 0, Geometry{1, 28, 28}));
  }
  Rng rng(5);
  std::vector<float> noise(static_cast<size_t>(plan.pool_size * 8));
  for (float& v : noise) v = static_cast<float>(rng.normal());
  write_npy(dir / "noise.npy", {plan.pool_size, 8}, noise);
  plan.priors = parse_prior_specs({YAML::Load("[{name: sup, kind: supervised, arch: 'mlp:8', rows: [0, 200], epochs: 1},"
                                              " {name: copy, kind: file, path: '" + (dir / "priors/sup.prior").string() + "'},"
                                              " {name: noise, kind: embeddings, path: '" + (dir / "noise.npy").string() + "'}]"),
                                   "t"});
  plan.align.reference = "sup";
  const ParticipantReport r = run(plan, src, 1);
  CHECK(r.weight[0] == 1.0);  // the reference itself
  CHECK(r.loo_r2[1] > 0.95);
  CHECK(r.weight[1] == r.loo_r2[1]);
  CHECK(r.mse_after[1] < 0.05 * r.mse_before[1]);
  CHECK(r.loo_r2[2] < 0.1);
  CHECK(r.weight[2] < 0.1);
  CHECK(r.weight[2] >= 0.0);
}

TEST_CASE("optimized dataset round trip and error paths") {
  test::TempDir dir("optds");
  Shard s;
  s.images = Tensor::full({3, 4}, 0.25f);
  s.targets = Tensor::full({3, 2}, 1.0f);
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
  CHECK(d.images.to_vector<float>() == s.images.to_vector<float>());
  CHECK(d.targets.to_vector<float>() == s.targets.to_vector<float>());
  CHECK_FALSE(d.targets_unaligned.defined());
  CHECK(d.index == s.index);
  CHECK(d.weight == std::vector<float>{1, 1, 1});  // no "weight" in the manifest: 1
  Json weighted = Json::array();
  weighted.push_back(Json(Json::Object{{"name", Json("a")}, {"rows", Json(3)}, {"weight", Json(0.25)}}));
  mf["participants"] = weighted;
  write_manifest(dir.path(), mf);
  CHECK(read_optimized(dir.path()).weight == std::vector<float>{0.25f, 0.25f, 0.25f});
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
  DeviceContext device(Device::cpu());
  PriorBuildContext ctx = build_context(device, plan, src, 0, Geometry{1, 28, 28});
  PriorStatus st;
  Prior a = obtain_prior(plan, 0, ctx, &st);
  CHECK(st.trained);
  Prior b = obtain_prior(plan, 0, ctx, &st);
  CHECK_FALSE(st.trained);
  const Tensor x = Tensor::full({2, 784}, 0.3f);
  CHECK(a.embed(device, x, {}).to_vector<float>() == b.embed(device, x, {}).to_vector<float>());
  plan.priors[0].epochs = 2;
  obtain_prior(plan, 0, ctx, &st);
  CHECK(st.trained);
}
