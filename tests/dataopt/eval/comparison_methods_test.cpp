// coopt.eval.methods: one table gives the key's choices, their help text and what compare runs.
#include <doctest/doctest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "core/config/resolve.hpp"
#include "core/util/error.hpp"
#include "dataopt/eval/comparison_methods.hpp"
#include "dataopt/options.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
using namespace mlsys::dataopt;

TEST_CASE("the methods key's choices, help text and default are the method table") {
  const config::FieldBase* key = coopt_section().find("eval.methods");
  REQUIRE(key != nullptr);
  const auto choices = key->described_choices();
  const auto& table = comparison_methods();
  REQUIRE(choices.size() == table.size());
  std::set<std::string> names, labels;
  for (size_t i = 0; i < table.size(); ++i) {
    CHECK(choices[i].name == table[i].name);
    CHECK(choices[i].description == table[i].description);
    CHECK(&comparison_method(table[i].name) == &table[i]);
    names.insert(table[i].name);
    labels.insert(table[i].label);
  }
  // Rows of the printed table and of comparison.csv must be told apart.
  CHECK(names.size() == table.size());
  CHECK(labels.size() == table.size());
  const CooptOptions defaults;
  CHECK(defaults.methods == comparison_method_names());
  CHECK_THROWS_AS(comparison_method("nope"), std::out_of_range);
}

TEST_CASE("an unknown method is a config error that lists every method of the table") {
  const std::string message = test::thrown_message<ConfigError>(
      [] { config::resolve({&coopt_section()}, {}, {"coopt.eval.methods=[raw, nope]"}); });
  REQUIRE(!message.empty());
  CHECK(message.find("nope") != std::string::npos);
  for (const ComparisonMethod& m : comparison_methods()) CHECK_MESSAGE(message.find(m.name) != std::string::npos, m.name);
  // The binary says the same and exits 2 (bad config) before any work.
  test::TempDir dir("methods");
  auto r = test::run_mlsys("coopt compare --set 'coopt.eval.methods=[raw, nope]' --out " + (dir / "run").string());
  CHECK(r.exit_code == 2);
  for (const ComparisonMethod& m : comparison_methods()) CHECK_MESSAGE(r.err.find(m.name) != std::string::npos, m.name);
}
