#include <doctest/doctest.h>

#include <cmath>
#include <sstream>

#include "core/util/error.hpp"
#include "dataopt/net/losses.hpp"
#include "dataopt/net/net.hpp"

using namespace mlsys;
using namespace mlsys::dataopt;

namespace {

// Finite-difference check of d(loss)/d(param) for a few parameters of every layer.
void gradient_check(const std::string& arch, Geometry g) {
  Net net = Net::build(arch, g, 3);
  net.add_head(4, 4);
  Matrix x(3, g.size());
  Rng rng(5);
  for (float& v : x.v) v = static_cast<float>(rng.uniform());
  Matrix target(3, 4);
  for (float& v : target.v) v = static_cast<float>(rng.normal());
  auto loss = [&] {
    Matrix gr;
    return cosine_loss(net.forward(x, false), target, gr);
  };
  net.zero_grad();
  Matrix grad;
  cosine_loss(net.forward(x, true), target, grad);
  net.backward(grad);
  for (Param* p : net.params())
    for (size_t i = 0; i < p->w.size(); i += std::max<size_t>(1, p->w.size() / 5)) {
      const float keep = p->w[i];
      const float h = 1e-2f;
      p->w[i] = keep + h;
      const double up = loss();
      p->w[i] = keep - h;
      const double down = loss();
      p->w[i] = keep;
      CHECK(p->g[i] == doctest::Approx((up - down) / (2 * h)).epsilon(0.05).scale(1e-3));
    }
}

}  // namespace

TEST_CASE("backward matches finite differences (mlp and cnn)") {
  gradient_check("mlp:6,5", {1, 3, 3});
  gradient_check("cnn:3,2:5", {1, 6, 6});
}

TEST_CASE("losses: values and gradients") {
  Matrix logits(1, 3);
  logits.v = {1, 2, 3};
  Matrix g;
  const double ce = softmax_cross_entropy(logits, {2}, g);
  const double z = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
  CHECK(ce == doctest::Approx(-std::log(std::exp(3.0) / z)));
  CHECK(g.v[2] == doctest::Approx(std::exp(3.0) / z - 1));
  Matrix a(1, 2), b(1, 2);
  a.v = {1, 0};
  b.v = {0, 2};
  CHECK(cosine_loss(a, b, g) == doctest::Approx(1.0));
  CHECK(cosine_loss(a, a, g) == doctest::Approx(0.0));
  CHECK(mean_squared_error(a, b, g) == doctest::Approx(2.5));
  // Row weights: 1 everywhere changes nothing; weight 0 removes a row from loss and gradient.
  Matrix p2(2, 2), t2(2, 2), g1, g2;
  p2.v = {1, 0.5f, -1, 2};
  t2.v = {0.2f, 1, 1, 1};
  const double plain = cosine_loss(p2, t2, g1);
  const std::vector<float> ones{1, 1}, first{1, 0};
  CHECK(cosine_loss(p2, t2, g2, &ones) == doctest::Approx(plain));
  CHECK(g2.v == g1.v);
  const double half = cosine_loss(p2, t2, g2, &first);
  Matrix g0;
  CHECK(2 * half == doctest::Approx(cosine_loss(p2.select_rows({0}), t2.select_rows({0}), g0)));
  CHECK(g2.v[2] == 0.0f);
  CHECK(g2.v[3] == 0.0f);
  CHECK(g2.v[0] == doctest::Approx(g1.v[0]));
}

TEST_CASE("network save/load gives identical features, bad files are rejected") {
  Net net = Net::build("cnn:4:8", {1, 8, 8}, 11);
  net.add_head(3, 12);
  Matrix x(2, 64, 0.5f);
  x.v[7] = 1;
  std::stringstream buf;
  net.save(buf);
  Net back = Net::load(buf, "buffer");
  CHECK(back.arch() == "cnn:4:8");
  CHECK(back.head_dim() == 3);
  CHECK(back.features(x).v == net.features(x).v);
  std::string text = buf.str();
  std::stringstream cut(text.substr(0, text.size() - 10));
  CHECK_THROWS_AS(Net::load(cut, "cut"), InputError);
  std::stringstream junk("hello");
  CHECK_THROWS_AS(Net::load(junk, "junk"), InputError);
  CHECK_THROWS_AS(Net::build("transformer:3", {1, 8, 8}, 1), ConfigError);
  CHECK_THROWS_AS(Net::build("mlp:0", {1, 8, 8}, 1), ConfigError);
}
