// ${VAR} expansion and path-typed keys: shipped configs name data through the environment and
// paths relative to their own folder, so they run from any working folder.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>

#include "core/config/expand.hpp"
#include "core/config/resolve.hpp"
#include "core/util/error.hpp"
#include "tests/common/test_util.hpp"

using namespace mlsys;
using namespace mlsys::config;
namespace fs = std::filesystem;

namespace {

struct PathOptions {
  std::string data;
  std::string label = "x";
  std::vector<std::string> files;
  std::string table = "builtin";
  YamlValue tree;
};

const Section<PathOptions>& path_section() {
  static const Section<PathOptions> s("io", "paths", [](auto& s) {
    s.field("data", &PathOptions::data, "a folder").path();
    s.field("label", &PathOptions::label, "plain text");
    s.field("files", &PathOptions::files, "several files").path();
    s.field("table", &PathOptions::table, "a file or builtin").path({"builtin"});
    s.field("tree", &PathOptions::tree, "free-form");
  });
  return s;
}

std::string config_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

// Sets an environment variable for one test and restores it.
struct EnvVar {
  std::string name;
  std::string old;
  bool had;
  EnvVar(const std::string& n, const char* value) : name(n) {
    const char* o = std::getenv(n.c_str());
    had = o != nullptr;
    if (had) old = o;
    if (value) setenv(n.c_str(), value, 1);
    else unsetenv(n.c_str());
  }
  ~EnvVar() {
    if (had) setenv(name.c_str(), old.c_str(), 1);
    else unsetenv(name.c_str());
  }
};

}  // namespace

TEST_CASE("config expand: ${VAR}, ${VAR:-default}, $${ and errors") {
  EnvVar a("MLSYS_TEST_A", "/data/a");
  EnvVar empty("MLSYS_TEST_EMPTY", "");
  EnvVar unset("MLSYS_TEST_UNSET", nullptr);
  CHECK(expand_env("${MLSYS_TEST_A}/x.csv", "w") == "/data/a/x.csv");
  CHECK(expand_env("${MLSYS_TEST_UNSET:-/fallback}/x", "w") == "/fallback/x");
  CHECK(expand_env("${MLSYS_TEST_EMPTY:-d}", "w") == "d");
  CHECK(expand_env("${MLSYS_TEST_EMPTY}", "w") == "");
  CHECK(expand_env("${MLSYS_TEST_UNSET:-${MLSYS_TEST_A}}", "w") == "/data/a");
  CHECK(expand_env("$${MLSYS_TEST_A} costs $5", "w") == "${MLSYS_TEST_A} costs $5");
  CHECK(escape_env("${A} and $x") == "$${A} and $x");
  CHECK(expand_env(escape_env("${A}"), "w") == "${A}");
  auto err = config_error([] { expand_env("${MLSYS_TEST_UNSET}/x", "f.yaml:3:9: io.data"); });
  CHECK(err.find("f.yaml:3:9: io.data: environment variable MLSYS_TEST_UNSET is not set") != std::string::npos);
  CHECK(err.find("${MLSYS_TEST_UNSET:-default}") != std::string::npos);
  CHECK(config_error([] { expand_env("${MLSYS_TEST_A", "w"); }).find("unterminated") != std::string::npos);
  CHECK(config_error([] { expand_env("${1X}", "w"); }).find("not a variable reference") != std::string::npos);
}

TEST_CASE("config expand: a variable holding a relative path at the start of a value means the working folder") {
  EnvVar rel("MLSYS_TEST_REL", "../shared/data");
  EnvVar word("MLSYS_TEST_WORD", "alice");
  std::string expected = (fs::current_path().parent_path() / "shared" / "data" / "graphs").string();
  CHECK(expand_env("${MLSYS_TEST_REL}/graphs", "w") == expected);
  CHECK(expand_env("${MLSYS_TEST_WORD}/x", "w") == "alice/x");
  CHECK(expand_env("x/${MLSYS_TEST_REL}", "w") == "x/../shared/data");
  // Read from a config file in another folder, the value still names the working folder's path.
  test::TempDir dir("expand_rel");
  test::write_text(dir / "exp.yaml", "io:\n  data: ${MLSYS_TEST_REL}/graphs\n");
  auto cfg = resolve({&path_section()}, {(dir / "exp.yaml").string()}, {});
  CHECK(cfg.get(path_section()).data == expected);
}

TEST_CASE("config expand: an unset variable in a file names file, line and column") {
  EnvVar unset("MLSYS_TEST_UNSET", nullptr);
  test::TempDir dir("expand");
  test::write_text(dir / "exp.yaml", "io:\n  label: ok\n  data: ${MLSYS_TEST_UNSET}/graphs\n");
  auto err = config_error([&] { resolve({&path_section()}, {(dir / "exp.yaml").string()}, {}); });
  CHECK(err.find("exp.yaml:3:9: io.data: environment variable MLSYS_TEST_UNSET is not set") != std::string::npos);
}

TEST_CASE("config paths: relative to the config file's folder, --set relative to the working folder") {
  EnvVar a("MLSYS_TEST_A", "/data/a");
  test::TempDir dir("paths");
  test::write_text(dir / "configs/exp.yaml",
                   "io:\n  data: ../shared/graphs\n  label: ../not/a/path\n  files: [a.csv, /abs/b.csv, '${MLSYS_TEST_A}/c']\n"
                   "  table: builtin\n  tree: {x: '${MLSYS_TEST_A}'}\n");
  auto cfg = resolve({&path_section()}, {(dir / "configs/exp.yaml").string()}, {});
  const auto& o = cfg.get(path_section());
  fs::path root = fs::absolute(dir.path()).lexically_normal();
  CHECK(o.data == (root / "shared/graphs").string());
  CHECK(o.label == "../not/a/path");
  REQUIRE(o.files.size() == 3);
  CHECK(o.files[0] == (root / "configs/a.csv").string());
  CHECK(o.files[1] == "/abs/b.csv");
  CHECK(o.files[2] == "/data/a/c");
  CHECK(o.table == "builtin");
  CHECK(o.tree.node["x"].as<std::string>() == "/data/a");

  // Included files resolve against their own folder.
  test::write_text(dir / "base/base.yaml", "io:\n  data: local\n");
  test::write_text(dir / "top.yaml", "include: base/base.yaml\n");
  auto inc = resolve({&path_section()}, {(dir / "top.yaml").string()}, {});
  CHECK(inc.get(path_section()).data == (root / "base/local").string());

  auto set = resolve({&path_section()}, {}, {"io.data=rel/x", "io.table=t.csv"});
  CHECK(set.get(path_section()).data == (fs::current_path() / "rel/x").lexically_normal().string());
  CHECK(set.get(path_section()).table == (fs::current_path() / "t.csv").lexically_normal().string());
  CHECK(resolve({&path_section()}, {}, {}).get(path_section()).data.empty());
  CHECK(path_section().find("data")->type_name() == "path");
  CHECK(path_section().find("files")->type_name() == "list<path>");
}

TEST_CASE("config expand: the resolved YAML holds expanded values and reads back to the same config") {
  EnvVar a("MLSYS_TEST_A", "/data/a");
  auto cfg = resolve({&path_section()}, {}, {"io.label=${MLSYS_TEST_A}/x", "io.data=$${literal}"});
  CHECK(cfg.get(path_section()).label == "/data/a/x");
  std::string text = cfg.to_yaml_string();
  CHECK(text.find("/data/a/x") != std::string::npos);
  Resolver again({&path_section()});
  again.apply_text(text, "shown.yaml");
  auto back = std::move(again).finish();
  CHECK(back.get(path_section()).label == "/data/a/x");
  CHECK(back.get(path_section()).data == cfg.get(path_section()).data);
  CHECK(back.to_yaml_string() == text);
}
