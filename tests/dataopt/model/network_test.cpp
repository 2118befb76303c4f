#include <doctest/doctest.h>

#include <cmath>
#include <sstream>

#include "core/nn/loss.hpp"
#include "core/util/error.hpp"
#include "core/util/random.hpp"
#include "dataopt/math/tensor_ops.hpp"
#include "dataopt/model/network.hpp"

using namespace mlsys;
using namespace mlsys::dataopt;

namespace {

Tensor random_matrix(int64_t r, int64_t c, uint64_t seed, bool normal) {
  std::vector<float> v(static_cast<size_t>(r * c));
  Rng rng(seed);
  for (float& x : v) x = static_cast<float>(normal ? rng.normal() : rng.uniform());
  return host_matrix(std::move(v), r, c);
}

// Finite-difference check of d(loss)/d(param) for a few parameters of every layer, through the
// cosine loss the students train with.
void gradient_check(const std::string& arch, Geometry g) {
  DeviceContext ctx(Device::cpu());
  Network net = Network::build(ctx, arch, g, 3);
  net.add_head(4, 4);
  const Tensor x = random_matrix(3, g.size(), 5, false), target = random_matrix(3, 4, 6, true);
  nn::CosineSimilarityLoss cosine(ctx, 1e-12f);
  auto loss = [&] {
    nn::CosineSimilarityLoss eval(ctx, 1e-12f);
    return static_cast<double>(eval.forward(net.forward(x), target));
  };
  net.zero_grad();
  cosine.forward(net.forward(x), target);
  net.backward(cosine.grad_a());
  for (nn::Parameter* p : net.parameters()) {
    float* w = p->value.data<float>();
    const float* gr = p->grad.data<float>();
    for (int64_t i = 0; i < p->value.numel(); i += std::max<int64_t>(1, p->value.numel() / 5)) {
      const float keep = w[i];
      const float h = 1e-2f;
      w[i] = keep + h;
      const double up = loss();
      w[i] = keep - h;
      const double down = loss();
      w[i] = keep;
      INFO(arch << " " << p->name << "[" << i << "]");
      CHECK(gr[i] == doctest::Approx((up - down) / (2 * h)).epsilon(0.05).scale(1e-3));
    }
  }
}

}  // namespace

TEST_CASE("backward matches finite differences (mlp and cnn)") {
  gradient_check("mlp:6,5", {1, 3, 3});
  gradient_check("cnn:3,2:5", {1, 6, 6});
}

TEST_CASE("networks are seeded, features have the backbone's width, the head is separate") {
  DeviceContext ctx(Device::cpu());
  Network a = Network::build(ctx, "mlp:8,6", {1, 4, 4}, 7), b = Network::build(ctx, "mlp:8,6", {1, 4, 4}, 7);
  Network c = Network::build(ctx, "mlp:8,6", {1, 4, 4}, 8);
  const Tensor x = random_matrix(5, 16, 1, false);
  CHECK(a.feature_dim() == 6);
  CHECK(a.features(x).shape() == Shape{5, 6});
  CHECK(a.features(x).to_vector<float>() == b.features(x).to_vector<float>());
  CHECK(a.features(x).to_vector<float>() != c.features(x).to_vector<float>());
  a.add_head(3, 9);
  CHECK(a.forward(x).shape() == Shape{5, 3});
  CHECK(a.parameters().back()->name == "head.bias");
  CHECK(a.parameter_count() == 16 * 8 + 8 + 8 * 6 + 6 + 6 * 3 + 3);
}

TEST_CASE("network save/load gives identical features, bad files are rejected") {
  DeviceContext ctx(Device::cpu());
  Network net = Network::build(ctx, "cnn:4:8", {1, 8, 8}, 11);
  net.add_head(3, 12);
  std::vector<float> v(2 * 64, 0.5f);
  v[7] = 1;
  const Tensor x = host_matrix(v, 2, 64);
  std::stringstream buf;
  net.save(buf);
  Network back = Network::load(ctx, buf, "buffer");
  CHECK(back.arch() == "cnn:4:8");
  CHECK(back.head_dim() == 3);
  CHECK(back.features(x).to_vector<float>() == net.features(x).to_vector<float>());
  CHECK(back.forward(x).to_vector<float>() == net.forward(x).to_vector<float>());
  std::string text = buf.str();
  std::stringstream cut(text.substr(0, text.size() - 10));
  CHECK_THROWS_WITH_AS(Network::load(ctx, cut, "cut"), doctest::Contains("truncated"), InputError);
  std::stringstream junk("hello");
  CHECK_THROWS_AS(Network::load(ctx, junk, "junk"), InputError);
  // A weight block of another architecture is named, not read as this one.
  Network other = Network::build(ctx, "cnn:5:8", {1, 8, 8}, 11);
  std::stringstream obuf;
  other.save(obuf);
  std::string swapped = obuf.str();
  swapped.replace(swapped.find("cnn:5:8"), 7, "cnn:4:8");
  std::stringstream mismatched(swapped);
  CHECK_THROWS_WITH_AS(Network::load(ctx, mismatched, "swapped"), doctest::Contains("swapped"), InputError);
  CHECK_THROWS_AS(Network::build(ctx, "transformer:3", {1, 8, 8}, 1), ConfigError);
  CHECK_THROWS_AS(Network::build(ctx, "mlp:0", {1, 8, 8}, 1), ConfigError);
  CHECK_THROWS_WITH_AS(Network::build(ctx, "cnn:2,2,2:4", {1, 4, 4}, 1), doctest::Contains("below 1x1"), ConfigError);
}
