// Communication profiles: job names matched to model sizes, all-reduce bytes by hand.
#include <doctest/doctest.h>

#include "core/util/error.hpp"
#include "sched/workload/comm_profile.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
using namespace mlsys::workload;

TEST_CASE("comm profiles: names of every trace match their job type") {
  CommProfiles p("builtin");
  CHECK(job_type_key("ResNet-50 (batch size 64)") == "resnet50batchsize64");
  CHECK(p.match("ResNet-50 (batch size 64)")->job_type == "resnet50");
  CHECK(p.match("ResNet-18 (batch size 16)")->job_type == "resnet18");
  CHECK(p.match("resnet101")->job_type == "resnet101");  // the longest entry that starts the name
  CHECK(p.match("LM (batch size 80)")->params_m == doctest::Approx(13.99));
  CHECK(p.match("Recommendation (batch size 8192)")->job_type == "recommendation");
  CHECK(p.match("bert-u12")->params_m == 110);  // the generator's names
  CHECK(p.match("vgg19")->params_m == doctest::Approx(143.67));  // Tiresias'
  CHECK(p.match("my-own-model") == nullptr);
  CHECK(p.params_m("my-own-model") == kDefaultParamsM);
}

TEST_CASE("comm profiles: ring all-reduce bytes per worker and iteration") {
  // 2 (p - 1) / p x 4 bytes x params: ResNet-50 on 16 GPUs = 2 x 15/16 x 4 x 25.56e6 = 191.7e6.
  CHECK(allreduce_bytes(25.56, 16) == doctest::Approx(191.7e6));
  CHECK(allreduce_bytes(100, 2) == doctest::Approx(400e6));
  CHECK(allreduce_bytes(100, 1) == 0);
}

TEST_CASE("comm profiles: a CSV replaces the table, bad rows name file, line and column") {
  mlsys::test::TempDir t("profiles");
  mlsys::test::write_text(t / "p.csv", "job_type,params_m\nMyNet,7\nResNet-50,30\n");
  CommProfiles p((t / "p.csv").string());
  CHECK(p.params_m("mynet-large") == 7);
  CHECK(p.params_m("ResNet-50 (batch size 64)") == 30);
  CHECK(p.params_m("bert") == kDefaultParamsM);  // not in this table
  mlsys::test::write_text(t / "bad.csv", "job_type,params_m\nx,lots\n");
  CHECK_THROWS_WITH_AS(CommProfiles((t / "bad.csv").string()), doctest::Contains("bad.csv:2:2"), InputError);
}
