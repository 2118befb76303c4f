#include <doctest/doctest.h>

#include "core/registry/registry.hpp"

using namespace mlsys;

namespace {
struct Shape {
  virtual ~Shape() = default;
  virtual int sides() const = 0;
};
struct Triangle : Shape {
  int sides() const override { return 3; }
};
struct Square : Shape {
  int sides() const override { return 4; }
};
using ShapeRegistry = Registry<Shape>;
ShapeRegistry& shapes() {
  static ShapeRegistry r("shape");
  return r;
}
const bool kTri = shapes().add("triangle", "Three sides", [] { return std::make_unique<Triangle>(); });
const bool kSq = shapes().add("square", "Four sides", [] { return std::make_unique<Square>(); });
}  // namespace

TEST_CASE("registry: lookup, listing and creation of every entry") {
  CHECK(kTri);
  CHECK(kSq);
  CHECK(shapes().names() == std::vector<std::string>{"square", "triangle"});
  for (const auto* e : shapes().entries()) {
    CHECK(!e->description.empty());
    auto s = shapes().create(e->name);
    REQUIRE(s);
    CHECK(s->sides() >= 3);
  }
}

TEST_CASE("registry: unknown names list the valid ones and suggest the nearest") {
  try {
    shapes().create("squre");
    FAIL("expected an error");
  } catch (const ConfigError& e) {
    std::string m = e.what();
    CHECK(m.find("unknown shape 'squre'") != std::string::npos);
    CHECK(m.find("did you mean 'square'") != std::string::npos);
    CHECK(m.find("valid: square, triangle") != std::string::npos);
  }
  CHECK_THROWS_AS(shapes().add("square", "again", [] { return std::make_unique<Square>(); }), std::logic_error);
}

TEST_CASE("registry: factories with arguments") {
  struct Scaled {
    explicit Scaled(int k) : k(k) {}
    int k;
  };
  Registry<Scaled, int> r("scaled");
  r.add("x", "times", [](int k) { return std::make_unique<Scaled>(k); });
  CHECK(r.create("x", 7)->k == 7);
}
