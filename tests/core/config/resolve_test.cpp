#include <doctest/doctest.h>

#include "core/config/docs.hpp"
#include "core/config/resolve.hpp"
#include "core/util/error.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
using namespace mlsys::config;

namespace {

struct DemoOptions {
  std::string policy = "fifo";
  double load = 1.0;
  int64_t jobs = 100;
  bool verbose = false;
  std::vector<std::string> policies = {"fifo", "sjf"};
  std::vector<double> loads = {0.5, 1.0};
  std::string nested_name = "a";
  YamlValue topology;
};

const Section<DemoOptions>& demo_section() {
  static const Section<DemoOptions> s("demo", "A test section", [](auto& s) {
    s.field("policy", &DemoOptions::policy, "Policy").choices({"fifo", "sjf", "srtf"});
    s.field("load", &DemoOptions::load, "Load factor").range(0.01, 10);
    s.field("jobs", &DemoOptions::jobs, "Jobs").range(1, 1000000);
    s.field("verbose", &DemoOptions::verbose, "Verbose");
    s.field("policies", &DemoOptions::policies, "Policies to sweep").choices({"fifo", "sjf", "srtf"});
    s.field("loads", &DemoOptions::loads, "Loads").range(0, 10);
    s.field("nested.name", &DemoOptions::nested_name, "A nested key");
    s.field("topology", &DemoOptions::topology, "Free-form topology");
  });
  return s;
}

std::vector<const SectionBase*> sections() { return {&demo_section()}; }

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("config: defaults come from the struct initializers") {
  auto cfg = resolve(sections(), {}, {});
  const auto& d = cfg.get(demo_section());
  CHECK(d.policy == "fifo");
  CHECK(d.load == 1.0);
  CHECK(d.policies.size() == 2);
}

TEST_CASE("config: precedence defaults < files in order < --set") {
  test::TempDir dir("cfg");
  test::write_text(dir / "a.yaml", "demo:\n  policy: sjf\n  load: 2\n  jobs: 7\n");
  test::write_text(dir / "b.yaml", "demo:\n  load: 3\n");
  auto cfg = resolve(sections(), {(dir / "a.yaml").string(), (dir / "b.yaml").string()}, {"demo.jobs=9"});
  const auto& d = cfg.get(demo_section());
  CHECK(d.policy == "sjf");  // from a.yaml
  CHECK(d.load == 3.0);      // b.yaml overrides a.yaml
  CHECK(d.jobs == 9);        // --set overrides both
  CHECK(cfg.origins().at("demo.jobs") == "--set demo.jobs");
  CHECK(cfg.origins().at("demo.load") == (dir / "b.yaml").string() + ":2:9");
}

TEST_CASE("config: include is applied first and overridden by the including file") {
  test::TempDir dir("cfg");
  test::write_text(dir / "base" / "base.yaml", "demo:\n  policy: srtf\n  load: 4\n");
  test::write_text(dir / "exp.yaml", "include: base/base.yaml\ndemo:\n  load: 5\n");
  auto cfg = resolve(sections(), {(dir / "exp.yaml").string()}, {});
  CHECK(cfg.get(demo_section()).policy == "srtf");
  CHECK(cfg.get(demo_section()).load == 5.0);
}

TEST_CASE("config: include cycles and missing includes are errors with the line") {
  test::TempDir dir("cfg");
  test::write_text(dir / "a.yaml", "include: b.yaml\n");
  test::write_text(dir / "b.yaml", "demo:\n  load: 2\ninclude: [a.yaml]\n");
  std::string e = error_of([&] { resolve(sections(), {(dir / "a.yaml").string()}, {}); });
  CHECK(e.find("include cycle") != std::string::npos);
  test::write_text(dir / "c.yaml", "\ninclude: nope.yaml\n");
  e = error_of([&] { resolve(sections(), {(dir / "c.yaml").string()}, {}); });
  CHECK(e.find("c.yaml:2:10") != std::string::npos);
  CHECK(e.find("not found") != std::string::npos);
}

TEST_CASE("config: lists are replaced whole, not merged") {
  test::TempDir dir("cfg");
  test::write_text(dir / "a.yaml", "demo:\n  policies: [srtf]\n");
  auto cfg = resolve(sections(), {(dir / "a.yaml").string()}, {});
  CHECK(cfg.get(demo_section()).policies == std::vector<std::string>{"srtf"});
  auto cfg2 = resolve(sections(), {}, {"demo.loads=[0.1, 0.2, 0.3]"});
  CHECK(cfg2.get(demo_section()).loads.size() == 3);
}

TEST_CASE("config: unknown key names file:line:col and the nearest valid key") {
  test::TempDir dir("cfg");
  test::write_text(dir / "a.yaml", "demo:\n  load: 2\n  polcy: sjf\n");
  std::string e = error_of([&] { resolve(sections(), {(dir / "a.yaml").string()}, {}); });
  CHECK(e.find("a.yaml:3:3") != std::string::npos);
  CHECK(e.find("unknown key 'demo.polcy'") != std::string::npos);
  CHECK(e.find("did you mean 'demo.policy'") != std::string::npos);
}

TEST_CASE("config: a key in the wrong section suggests the right one") {
  std::string e = error_of([&] {
    Resolver r(sections());
    r.apply_text("policy: sjf\n", "x.yaml");
  });
  CHECK(e.find("x.yaml:1:1") != std::string::npos);
  CHECK(e.find("demo.policy") != std::string::npos);
}

TEST_CASE("config: bad values name location, key, value and what is allowed") {
  auto err = [&](const std::string& text) {
    return error_of([&] {
      Resolver r(sections());
      r.apply_text(text, "e.yaml");
    });
  };
  std::string e = err("demo:\n  policy: fifoo\n");
  CHECK(e.find("e.yaml:2:11") != std::string::npos);
  CHECK(e.find("demo.policy = 'fifoo'") != std::string::npos);
  CHECK(e.find("one of: fifo, sjf, srtf") != std::string::npos);
  CHECK(e.find("did you mean 'fifo'") != std::string::npos);

  e = err("demo:\n  load: 50\n");
  CHECK(e.find("e.yaml:2:9") != std::string::npos);
  CHECK(e.find("out of range") != std::string::npos);
  CHECK(e.find("[0.01, 10]") != std::string::npos);

  e = err("demo:\n  jobs: many\n");
  CHECK(e.find("expected an integer") != std::string::npos);
  e = err("demo:\n  jobs: 1.5\n");
  CHECK(e.find("expected an integer") != std::string::npos);
  e = err("demo:\n  verbose: maybe\n");
  CHECK(e.find("expected a boolean") != std::string::npos);
  e = err("demo:\n  policies: fifo\n");
  CHECK(e.find("expected a list") != std::string::npos);
  e = err("demo:\n  policies: [fifo, lifo]\n");
  CHECK(e.find("e.yaml:2:20: demo.policies = 'lifo'") != std::string::npos);
  e = err("demo:\n  load: [1]\n");
  CHECK(e.find("expected a number") != std::string::npos);
  e = err("demo: 3\n");
  CHECK(e.find("must be a map") != std::string::npos);
  e = err("- a\n- b\n");
  CHECK(e.find("must be a map of sections") != std::string::npos);
}

TEST_CASE("config: malformed YAML and missing files are config errors") {
  std::string e = error_of([&] {
    Resolver r(sections());
    r.apply_text("demo:\n  load: [1, 2\n", "m.yaml");
  });
  CHECK(e.find("m.yaml:") != std::string::npos);
  CHECK(e.find("malformed YAML") != std::string::npos);
  e = error_of([&] { resolve(sections(), {"/nonexistent/x.yaml"}, {}); });
  CHECK(e.find("config file not found: /nonexistent/x.yaml") != std::string::npos);
}

TEST_CASE("config: --set errors") {
  CHECK(error_of([&] { resolve(sections(), {}, {"demo.load"}); }).find("expected key.path=value") != std::string::npos);
  std::string e = error_of([&] { resolve(sections(), {}, {"demo.lod=3"}); });
  CHECK(e.find("unknown key 'demo.lod'") != std::string::npos);
  CHECK(e.find("did you mean 'demo.load'") != std::string::npos);
  e = error_of([&] { resolve(sections(), {}, {"demo.load=-1"}); });
  CHECK(e.find("--set demo.load") != std::string::npos);
  CHECK(e.find("out of range") != std::string::npos);
}

TEST_CASE("config: nested keys and yaml values") {
  test::TempDir dir("cfg");
  test::write_text(dir / "a.yaml", "demo:\n  nested:\n    name: zz\n  topology:\n    racks:\n      - nodes: 4\n");
  auto cfg = resolve(sections(), {(dir / "a.yaml").string()}, {"demo.nested.name=yy"});
  const auto& d = cfg.get(demo_section());
  CHECK(d.nested_name == "yy");
  REQUIRE(d.topology.node.IsMap());
  CHECK(d.topology.node["racks"][0]["nodes"].as<int>() == 4);
  // Errors inside a yaml value can name their own line.
  CHECK(d.topology.where(d.topology.node["racks"][0]["nodes"]) == (dir / "a.yaml").string() + ":6:16");
}

TEST_CASE("config: resolved YAML round-trips to the same config") {
  auto cfg = resolve(sections(), {}, {"demo.load=0.1", "demo.policies=[srtf]", "demo.nested.name=q"});
  std::string text = cfg.to_yaml_string();
  Resolver r(sections());
  r.apply_text(text, "round.yaml");
  auto again = std::move(r).finish();
  CHECK(again.to_yaml_string() == text);
  CHECK(text.find("load: 0.1\n") != std::string::npos);  // shortest float form
}

TEST_CASE("config: help and markdown list every key with type, default and allowed") {
  std::string help = help_text(sections());
  std::string md = markdown(sections());
  for (const auto& f : demo_section().fields()) {
    CHECK(help.find("demo." + f->key()) != std::string::npos);
    CHECK(md.find("`demo." + f->key() + "`") != std::string::npos);
  }
  CHECK(help.find("one of: fifo, sjf, srtf") != std::string::npos);
  CHECK(md.find("| `demo.load` | float | `1` | [0.01, 10] | Load factor |") != std::string::npos);
}

TEST_CASE("config: a repeated key is an error naming both lines, at any depth") {
  test::TempDir dir("dup");
  test::write_text(dir / "a.yaml", "demo:\n  load: 2\n  jobs: 5\n  load: 3\n");
  auto err = error_of([&] { resolve(sections(), {(dir / "a.yaml").string()}, {}); });
  CHECK(err.find("a.yaml:4:3: duplicate key 'demo.load' (also at line 2)") != std::string::npos);
  test::write_text(dir / "b.yaml", "demo:\n  jobs: 5\ndemo:\n  load: 3\n");
  err = error_of([&] { resolve(sections(), {(dir / "b.yaml").string()}, {}); });
  CHECK(err.find("b.yaml:3:1: duplicate key 'demo' (also at line 1)") != std::string::npos);
  test::write_text(dir / "c.yaml", "demo:\n  topology:\n    racks:\n      - {name: r1, name: r2}\n");
  err = error_of([&] { resolve(sections(), {(dir / "c.yaml").string()}, {}); });
  CHECK(err.find("duplicate key 'demo.topology.racks[0].name'") != std::string::npos);
}

TEST_CASE("config: unsigned 64-bit keys take the whole range exactly and refuse negatives") {
  struct Seeded {
    uint64_t seed = 1;
  };
  static const Section<Seeded> seeded("s", "seeds", [](auto& s) { s.field("seed", &Seeded::seed, "seed").min(0); });
  auto cfg = resolve({&seeded}, {}, {"s.seed=18446744073709551615"});
  CHECK(cfg.get(seeded).seed == 18446744073709551615ULL);
  CHECK(resolve({&seeded}, {}, {"s.seed=9007199254740993"}).get(seeded).seed == 9007199254740993ULL);
  CHECK(cfg.to_yaml_string().find("seed: 18446744073709551615") != std::string::npos);
  CHECK(error_of([] { resolve({&seeded}, {}, {"s.seed=-1"}); }).find("non-negative") != std::string::npos);
  CHECK(error_of([] { resolve({&seeded}, {}, {"s.seed=18446744073709551616"}); }).find("out of range") !=
        std::string::npos);
}

TEST_CASE("config: an include the file system cannot look up is a ConfigError, not a crash (fuzz finding)") {
  std::string name(5000, 'x');
  auto err = error_of([&] { Resolver r(sections()); r.apply_text("include: " + name + "\n", "f.yaml"); });
  CHECK(err.find("f.yaml:1:10: included file not found") != std::string::npos);
  err = error_of([&] { resolve(sections(), {std::string(5000, 'y') + ".yaml"}, {}); });
  CHECK(err.find("config file not found") != std::string::npos);
}
