// End-to-end runs of the real binary on tiny data (synthetic, or an IDX folder written here).
#include <doctest/doctest.h>

#include <cmath>

#include "core/util/json.hpp"
#include "dataopt/data/idx.hpp"
#include "dataopt/data/synthetic.hpp"
#include "dataopt/eval/comparison_methods.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
using namespace mlsys::dataopt;

namespace {

const char* kTiny =
    " --set coopt.pool.begin=400 --set coopt.pool.size=300 --set coopt.test_size=200 --set coopt.align.fraction=0.1"
    " --set coopt.student.mlp_arch=mlp:32 --set coopt.student.cnn_arch=cnn:2:16 --set coopt.align.dim=8"
    " --set 'coopt.priors=[{name: sup, kind: supervised, arch: \"mlp:16\", rows: [0, 200], epochs: 1},"
    " {name: dae, kind: dae, arch: \"mlp:8\", rows: [200, 300], epochs: 1}, {name: rnd, kind: random, arch: \"mlp:20\"}]'";

// A tiny MNIST-style IDX folder (not Fashion-MNIST): 6 classes of 12x12 generated images.
void write_idx_fixture(const std::filesystem::path& dir) {
  ImageSet train = make_synthetic({800, 6, 12, 21, 5}), test = make_synthetic({200, 6, 12, 22, 5});
  write_idx_images(dir / "train-images-idx3-ubyte.gz", train);
  write_idx_labels(dir / "train-labels-idx1-ubyte.gz", train.labels);
  write_idx_images(dir / "t10k-images-idx3-ubyte", test);
  write_idx_labels(dir / "t10k-labels-idx1-ubyte", test.labels);
}

}  // namespace

TEST_CASE("coopt quickstart: the default config runs and prints a summary") {
  test::TempDir dir("quick");
  auto r = test::run_mlsys("coopt --out " + (dir / "run").string() + " --set coopt.data.source=synthetic");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("participant phase: 4 participants") != std::string::npos);
  CHECK(r.out.find("linear probe") != std::string::npos);
  // The student is shown next to the baselines it must beat, and a loss to either is explained.
  CHECK(r.out.find("baselines: the unaligned student (T = I)") != std::string::npos);
  Json sum = Json::parse(test::read_text(dir / "run/summary.json"));
  const double student = sum["student"]["few_label_acc"].as_number();
  bool trails = false;
  for (const char* baseline : {"unaligned_student", "untrained_student", "raw_pixels"})
    trails = trails || student <= sum[baseline]["few_label_acc"].as_number();
  CHECK((r.out.find("why it trails ") != std::string::npos) == trails);
  CHECK(std::filesystem::exists(dir / "run/optimized/manifest.json"));
  CHECK(std::filesystem::exists(dir / "run/priors/strong.prior"));
}

TEST_CASE("coopt compare on an IDX folder given by path, deterministic, reusable dataset") {
  test::TempDir dir("cmp");
  write_idx_fixture(dir / "idx");
  const std::string base = std::string("coopt compare") + kTiny + " --set coopt.data.source=idx --set coopt.data.dir=" +
                           (dir / "idx").string() + " --set coopt.eval.epochs=[1,2] --set coopt.eval.seeds=2";
  auto a = test::run_mlsys(base + " --out " + (dir / "a").string());
  INFO(a.err);
  REQUIRE(a.exit_code == 0);
  CHECK(a.out.find("CoOpt aligned, MLP student") != std::string::npos);
  CHECK(a.out.find("single best prior, central") != std::string::npos);
  const std::string csv = test::read_text(dir / "a/comparison.csv");
  CHECK(csv.find("coopt_noalign,2,") != std::string::npos);
  // The default methods are the whole method table, and each entry ran: its rows and its label.
  for (const ComparisonMethod& m : comparison_methods()) {
    CHECK_MESSAGE(csv.find("\n" + m.name + ",2,") != std::string::npos, m.name);
    CHECK_MESSAGE(a.out.find(m.label) != std::string::npos, m.name);
  }
  CHECK(test::read_text(dir / "a/accuracy_few_labels.svg").find("</svg>") != std::string::npos);
  // The claims in summary.json are the table's numbers: aligned minus unaligned at the last epoch.
  auto few_at = [&](const std::string& method, const std::string& epoch) {
    const std::string key = "\n" + method + "," + epoch + ",";
    const size_t at = csv.find(key);
    REQUIRE(at != std::string::npos);
    return std::stod(csv.substr(at + key.size()));
  };
  Json sum = Json::parse(test::read_text(dir / "a/summary.json"));
  CHECK(sum["checks"]["last_epoch"].as_int() == 2);
  // (the CSV holds 4 decimals)
  CHECK(std::abs(sum["checks"]["coopt_minus_noalign_last"].as_number() - (few_at("coopt", "2") - few_at("coopt_noalign", "2"))) < 2e-4);
  CHECK(std::abs(sum["checks"]["coopt_minus_simclr_epoch1"].as_number() - (few_at("coopt", "1") - few_at("simclr", "1"))) < 2e-4);
  // The run record names the train and test images and labels it read, with their hashes.
  for (const char* key : {"coopt.data.train.images", "coopt.data.train.labels", "coopt.data.test.images", "coopt.data.test.labels"})
    CHECK(sum["run"]["inputs"][key]["path"].as_string().find((dir / "idx").string()) == 0);
  // Same seed, same outputs (priors reloaded from a's cache must not change anything either).
  auto b = test::run_mlsys(base + " --out " + (dir / "b").string() + " --set coopt.priors_dir=" + (dir / "a/priors").string());
  REQUIRE(b.exit_code == 0);
  CHECK(test::read_text(dir / "b/comparison.csv") == csv);
  // Any later training reuses the optimized dataset written by the first run.
  auto t = test::run_mlsys(std::string("coopt train") + kTiny + " --set coopt.data.source=idx --set coopt.data.dir=" +
                           (dir / "idx").string() + " --set coopt.dataset_dir=" + (dir / "a/optimized").string() +
                           " --set coopt.student.kind=cnn --set coopt.student.epochs=1 --out " + (dir / "t").string());
  INFO(t.err);
  CHECK(t.exit_code == 0);
  CHECK(t.out.find("student cnn:2:16") != std::string::npos);
}

TEST_CASE("coopt optimize with inproc ranks matches one rank, bad configs fail clearly") {
  test::TempDir dir("ranks");
  const std::string base = std::string("coopt optimize") + kTiny + " --set coopt.data.source=synthetic";
  auto one = test::run_mlsys(base + " --out " + (dir / "one").string());
  REQUIRE(one.exit_code == 0);
  auto two = test::run_mlsys(base + " --set comm.world_size=2 --out " + (dir / "two").string());
  INFO(two.err);
  REQUIRE(two.exit_code == 0);
  for (int k = 0; k < 3; ++k) {
    const std::string f = "/optimized/shard-" + std::to_string(k) + "/targets.npy";
    CHECK(test::read_text(dir / ("one" + f)) == test::read_text(dir / ("two" + f)));
  }
  auto overlap = test::run_mlsys(base + " --set coopt.pool.begin=100 --out " + (dir / "bad").string());
  CHECK(overlap.exit_code == 2);
  CHECK(overlap.err.find("overlap the pool") != std::string::npos);
  auto missing = test::run_mlsys("coopt --set coopt.data.source=idx --set coopt.data.dir=" + (dir / "nowhere").string() +
                                 " --out " + (dir / "bad2").string());
  CHECK(missing.exit_code == 2);  // a missing input the user named is bad usage (require_input)
  CHECK(missing.err.find("coopt.data.dir = '" + (dir / "nowhere").string() + "': no such file or folder") !=
        std::string::npos);
}
