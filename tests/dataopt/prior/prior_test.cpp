#include <doctest/doctest.h>

#include "tests/common/test_util.hpp"
#include "tests/dataopt/fixtures.hpp"
#include "core/util/error.hpp"
#include "dataopt/data/idx.hpp"
#include "dataopt/data/npy.hpp"
#include "dataopt/data/synthetic.hpp"
#include "dataopt/pipeline/priors.hpp"
#include "dataopt/prior/prior_kind.hpp"

using namespace mlsys;
using namespace mlsys::dataopt;

namespace {
DataSource tiny_source() { return test_fixtures::synthetic_source(300); }
}  // namespace

TEST_CASE("every network prior kind builds, embeds, saves and reloads identically") {
  test::TempDir dir("priors");
  DataSource src = tiny_source();
  DeviceContext device(Device::cpu());
  PriorBuildContext ctx;
  ctx.device = &device;
  ctx.data = &src;
  ctx.seed = 3;
  ctx.pool_rows = 10;
  const ImageSet probe = src.train_rows(250, 260);
  const Tensor x = probe.images();
  for (const char* kind : {"supervised", "dae", "simclr", "random"}) {
    PriorSpec s;
    s.name = kind;
    s.kind = kind;
    s.arch = "mlp:16";
    s.rows_begin = 0;
    s.rows_end = 100;
    s.epochs = 1;
    Prior p = prior_kind_registry().create(kind)->build(s, ctx);
    CHECK(p.dim() == 16);
    Tensor z = p.embed(device, x, {});
    CHECK(z.rows() == 10);
    save_prior(dir / (std::string(kind) + ".prior"), p);
    Prior back = load_prior(device, dir / (std::string(kind) + ".prior"));
    CHECK(back.name == kind);
    CHECK(back.about == p.about);
    CHECK(back.embed(device, x, {}).to_vector<float>() == z.to_vector<float>());
  }
  test::write_text(dir / "bad.prior", "mlsys-prior 2\n");
  CHECK_THROWS_AS(load_prior(device, dir / "bad.prior"), InputError);
  test::write_text(dir / "old.prior", "mlsys-prior 1\nname a\nkind random\nabout x\n");
  CHECK_THROWS_WITH_AS(load_prior(device, dir / "old.prior"), doctest::Contains("retrain it"), InputError);
  test::write_text(dir / "other.prior", "hello\n");
  CHECK_THROWS_WITH_AS(load_prior(device, dir / "other.prior"), doctest::Contains("not an mlsys prior file"), InputError);
}

TEST_CASE("coarse supervised prior trains on a different label set") {
  std::vector<int32_t> fine{0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  CHECK(coarse_labels(fine, 10) == std::vector<int32_t>{0, 1, 0, 0, 0, 2, 0, 2, 3, 2});
  CHECK(coarse_labels({0, 1, 2}, 3) == std::vector<int32_t>{0, 1, 2});
}

TEST_CASE("bring-your-own embeddings: npy and csv, row count checked") {
  test::TempDir dir("byo");
  write_npy(dir / "e.npy", {4, 3}, std::vector<float>(12, 0.5f));
  DataSource src = tiny_source();
  DeviceContext device(Device::cpu());
  PriorBuildContext ctx;
  ctx.device = &device;
  ctx.data = &src;
  ctx.pool_rows = 4;
  PriorSpec s;
  s.name = "clip";
  s.kind = "embeddings";
  s.path = (dir / "e.npy").string();
  Prior p = prior_kind_registry().create("embeddings")->build(s, ctx);
  CHECK(p.dim() == 3);
  CHECK(p.embed(device, Tensor::zeros({2, 1}), {1, 3}).rows() == 2);
  test::write_text(dir / "e.csv", "1,2\n3,4\n5,6\n");
  s.path = (dir / "e.csv").string();
  CHECK_THROWS_WITH_AS(prior_kind_registry().create("embeddings")->build(s, ctx), doctest::Contains("3 embedding rows but the pool has 4"),
                       InputError);
}

TEST_CASE("prior specs: defaults parse, bad entries name the location") {
  std::vector<PriorSpec> d = parse_prior_specs({});
  REQUIRE(d.size() == 4);
  CHECK(d[0].name == "strong");
  config::YamlValue bad{YAML::Load("[{name: a, kind: supervized}]"), "x.yaml"};
  CHECK_THROWS_WITH_AS(parse_prior_specs(bad), doctest::Contains("did you mean 'supervised'"), ConfigError);
  config::YamlValue dup{YAML::Load("[{name: a, kind: random}, {name: a, kind: random}]"), "x.yaml"};
  CHECK_THROWS_WITH_AS(parse_prior_specs(dup), doctest::Contains("duplicate prior name"), ConfigError);
  config::YamlValue key{YAML::Load("[{name: a, kind: random, colour: red}]"), "x.yaml"};
  CHECK_THROWS_WITH_AS(parse_prior_specs(key), doctest::Contains("unknown prior key 'colour'"), ConfigError);
}

TEST_CASE("priors learn from other datasets by path, resized to the target, cached by their files") {
  test::TempDir dir("other");
  // Another domain: 16x16 images of 5 classes as an IDX folder and as .npy with a labels file.
  ImageSet other = make_synthetic({60, 5, 16, 31, 9});
  std::filesystem::create_directories(dir / "idx");
  write_idx_images(dir / "idx/train-images-idx3-ubyte", other);
  write_idx_labels(dir / "idx/train-labels-idx1-ubyte", other.labels);
  write_npy(dir / "img.npy", {other.n, 16, 16}, other.pixels);
  write_npy(dir / "lab.npy", {static_cast<int64_t>(other.labels.size())}, other.labels);
  DataSource src = tiny_source();
  DeviceContext device(Device::cpu());
  Plan plan;
  plan.priors = parse_prior_specs({YAML::Load("[{name: sup, kind: supervised, arch: 'mlp:8', dataset: '" + (dir / "idx").string() +
                                              "', epochs: 1}, {name: npy, kind: supervised, arch: 'mlp:8', dataset: '" +
                                              (dir / "img.npy").string() + "', label_file: '" + (dir / "lab.npy").string() +
                                              "', rows: [0, 40], epochs: 1}, {name: ssl, kind: simclr, arch: 'mlp:8', dataset: '" +
                                              (dir / "img.npy").string() + "', epochs: 1}, {name: dig, kind: dae, dataset: digits}]"),
                                   "test"});
  plan.priors_dir = dir / "priors";
  plan.pool_size = 10;
  const Geometry target{1, 28, 28};
  for (int k = 0; k < 3; ++k) {
    PriorStatus st;
    Prior p = obtain_prior(plan, k, build_context(device, plan, src, k, target), &st);
    CHECK(st.trained);
    CHECK(p.net.input().h == 28);  // learned at the target's size
    CHECK(p.embed(device, src.train_rows(0, 3).images(), {}).rows() == 3);
  }
  CHECK(obtain_prior(plan, 0, build_context(device, plan, src, 0, target)).about.find("60 images of") != std::string::npos);
  CHECK(obtain_prior(plan, 1, build_context(device, plan, src, 1, target)).about.find("rows 0-40") != std::string::npos);
  // Reloaded from the cache while the dataset is unchanged; retrained after it changes.
  PriorStatus st;
  obtain_prior(plan, 1, build_context(device, plan, src, 1, target), &st);
  CHECK_FALSE(st.trained);
  std::vector<int32_t> relabeled = other.labels;
  relabeled[0] = (relabeled[0] + 1) % 5;
  relabeled.push_back(0);  // a different size, whatever the file system's time resolution
  relabeled.pop_back();
  write_npy(dir / "lab.npy", {static_cast<int64_t>(relabeled.size())}, relabeled);
  std::filesystem::last_write_time(dir / "lab.npy", std::filesystem::last_write_time(dir / "lab.npy") + std::chrono::seconds(5));
  obtain_prior(plan, 1, build_context(device, plan, src, 1, target), &st);
  CHECK(st.trained);
  // The simclr settings are part of its cache key.
  obtain_prior(plan, 2, build_context(device, plan, src, 2, target), &st);
  CHECK_FALSE(st.trained);
  plan.simclr.temperature = 0.25;
  obtain_prior(plan, 2, build_context(device, plan, src, 2, target), &st);
  CHECK(st.trained);
  // dataset: digits reads coopt.data.digits_csv; none given is a config error, never a guess.
  CHECK_THROWS_WITH_AS(obtain_prior(plan, 3, build_context(device, plan, src, 3, target)),
                       doctest::Contains("coopt.data.digits_csv is empty"), ConfigError);
  test::write_text(dir / "d.csv", "0,1,2,3,0\n4,3,2,1,1\n1,1,1,1,0\n");
  plan.digits_csv = dir / "d.csv";
  CHECK(obtain_prior(plan, 3, build_context(device, plan, src, 3, target)).net.input().w == 28);
  // A supervised prior needs labels: a .npy without label_file has none.
  plan.priors = parse_prior_specs({YAML::Load("[{name: x, kind: supervised, dataset: '" + (dir / "img.npy").string() + "'}]"), "t"});
  CHECK_THROWS_WITH_AS(obtain_prior(plan, 0, build_context(device, plan, src, 0, target)), doctest::Contains("needs labels"),
                       ConfigError);
}
