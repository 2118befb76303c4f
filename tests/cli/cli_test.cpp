// Runs the real `mlsys` binary: help, exit codes and error messages, config show round trip.
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>

#include "core/util/strings.hpp"
#include "tests/common/test_util.hpp"

using mlsys::test::run_mlsys;

namespace {
bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }
const char* kCommands[] = {"train-gnn", "simulate", "schedmate", "coopt"};
}  // namespace

TEST_CASE("cli: --help lists every command with one line each, no args is usage error") {
  auto r = run_mlsys("--help");
  CHECK(r.exit_code == 0);
  for (const char* c : kCommands) CHECK(contains(r.out, std::string("  ") + c));
  CHECK(contains(r.out, "config"));
  CHECK(contains(r.out, "version"));
  auto none = run_mlsys("");
  CHECK(none.exit_code == 2);
}

TEST_CASE("cli: each command's --help lists options and every config key") {
  for (const char* c : kCommands) {
    auto r = run_mlsys(std::string(c) + " --help");
    CHECK_MESSAGE(r.exit_code == 0, c);
    CHECK(contains(r.out, "--set"));
    CHECK(contains(r.out, "run.seed"));
    CHECK(contains(r.out, "default"));
    auto show = run_mlsys(std::string("config show ") + c);
    REQUIRE(show.exit_code == 0);
    // Every top-level key of the resolved config appears in --help.
    std::string section;
    for (const auto& line : mlsys::split(show.out, '\n')) {
      if (line.empty()) continue;
      if (line[0] != ' ') {
        section = line.substr(0, line.find(':'));
        continue;
      }
      if (line.size() > 2 && line[2] != ' ' && line[2] != '-') {
        std::string key = section + "." + line.substr(2, line.find(':') - 2);
        CHECK_MESSAGE(contains(r.out, key), c << ": " << key << " missing from --help");
      }
    }
  }
}

TEST_CASE("cli: version prints the build's features") {
  auto r = run_mlsys("version");
  CHECK(r.exit_code == 0);
  for (const char* f : {"git:", "backends", " cuda ", " nccl ", "mpi:", "blas:", "threads:", "compiler:"}) CHECK(contains(r.out, f));
}

TEST_CASE("cli: the binary runs OpenMP passively unless the user chose a wait policy") {
  auto unset = mlsys::test::run_shell(std::string("env -u OMP_WAIT_POLICY ") + MLSYS_BINARY + " version");
  CHECK(unset.exit_code == 0);
  CHECK(contains(unset.out, "OMP_WAIT_POLICY=passive"));
  auto chosen = mlsys::test::run_shell(std::string("OMP_WAIT_POLICY=active ") + MLSYS_BINARY + " version");
  CHECK(contains(chosen.out, "OMP_WAIT_POLICY=active"));
}

TEST_CASE("cli: usage errors exit 2 with one clear message") {
  auto r = run_mlsys("simulat");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "unknown command 'simulat'"));
  CHECK(contains(r.err, "did you mean 'simulate'"));
  CHECK_FALSE(contains(r.err, "terminate called"));

  r = run_mlsys("simulate --bogus-flag");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "bogus-flag"));

  r = run_mlsys("simulate /nonexistent/exp.yaml");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "config file not found: /nonexistent/exp.yaml"));

  r = run_mlsys("config show simulate --set run.sed=3");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "did you mean 'run.seed'"));

  r = run_mlsys("config show simulate --seed -4");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "run.seed"));

  r = run_mlsys("config");
  CHECK(r.exit_code == 2);
}

TEST_CASE("cli: config file errors name file:line:col, key, value and allowed values") {
  mlsys::test::TempDir dir("cli");
  auto write = [&](const std::string& name, const std::string& text) {
    mlsys::test::write_text(dir / name, text);
    return (dir / name).string();
  };
  auto r = run_mlsys("config show simulate " + write("a.yaml", "run:\n  seed: 3\n  thread: 2\n"));
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "a.yaml:3:3: unknown key 'run.thread' (did you mean 'run.threads'?)"));

  r = run_mlsys("config show train-gnn " + write("b.yaml", "run:\n  log_level: loud\n"));
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "b.yaml:2:14: run.log_level = 'loud'"));
  CHECK(contains(r.err, "one of: debug, info, warn, error, quiet"));

  r = run_mlsys("config show coopt " + write("c.yaml", "run:\n  threads: [1\n"));
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "c.yaml:"));
  CHECK(contains(r.err, "malformed YAML"));

  r = run_mlsys("config show schedmate " + write("d.yaml", "run:\n  threads: -3\n"));
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "d.yaml:2:12: run.threads = -3: out of range; allowed [0, 1024]"));

  r = run_mlsys("config show simulate " + write("e.yaml", "run:\n  overwrite: perhaps\n"));
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "expected a boolean"));
}

TEST_CASE("cli: precedence defaults < files in order < --set and flags") {
  mlsys::test::TempDir dir("cli");
  mlsys::test::write_text(dir / "base.yaml", "run:\n  seed: 5\n  threads: 1\n");
  mlsys::test::write_text(dir / "exp.yaml", "include: base.yaml\nrun:\n  seed: 6\n");
  mlsys::test::write_text(dir / "late.yaml", "run:\n  threads: 2\n");
  auto r = run_mlsys("config show simulate " + (dir / "exp.yaml").string() + " " + (dir / "late.yaml").string());
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "seed: 6"));
  CHECK(contains(r.out, "threads: 2"));
  r = run_mlsys("config show simulate " + (dir / "exp.yaml").string() + " --set run.seed=8");
  CHECK(contains(r.out, "seed: 8"));
  r = run_mlsys("config show simulate " + (dir / "exp.yaml").string() + " --set run.seed=8 --seed 9 -q");
  CHECK(contains(r.out, "seed: 9"));
  CHECK(contains(r.out, "log_level: warn"));
}

TEST_CASE("cli: config show round trip: show -> file -> show gives the same config") {
  mlsys::test::TempDir dir("cli");
  for (const char* c : kCommands) {
    auto first = run_mlsys(std::string("config show ") + c + " --seed 11");
    REQUIRE(first.exit_code == 0);
    mlsys::test::write_text(dir / "resolved.yaml", first.out);
    auto second = run_mlsys(std::string("config show ") + c + " " + (dir / "resolved.yaml").string());
    CHECK_MESSAGE(second.exit_code == 0, c << ": " << second.err);
    CHECK_MESSAGE(second.out == first.out, c);
  }
}

TEST_CASE("cli: docs/CONFIG.md is generated from the declarations and is up to date") {
  auto r = run_mlsys("config docs");
  REQUIRE(r.exit_code == 0);
  std::string on_disk = mlsys::test::read_text(mlsys::test::source_dir() / "docs/CONFIG.md");
  CHECK_MESSAGE(on_disk == r.out, "docs/CONFIG.md is stale: run `make docs` and commit it");
}

TEST_CASE("cli: a run writes the same resolved config that config show prints, less its folder") {
  mlsys::test::TempDir dir("cli");
  for (const char* c : kCommands) {
    std::string out = (dir / c).string();
    const std::string args = " --seed 3 -q --set run.progress=off";
    auto show = run_mlsys(std::string("config show ") + c + args);
    REQUIRE(show.exit_code == 0);
    // The run may succeed or fail; either way config.yaml is written first. run.out_dir and
    // run.overwrite are written as their defaults so the re-run goes to a new folder.
    run_mlsys(std::string(c) + args + " --out " + out + " --overwrite");
    std::string written = mlsys::test::read_text(dir / c / "config.yaml");
    REQUIRE_MESSAGE(!written.empty(), c);
    while (!written.empty() && written[0] == '#') written = written.substr(written.find('\n') + 1);
    CHECK_MESSAGE(written == show.out, c);
  }
}

// doctest_discover_tests hands each case name to CMake, which splits names at ';' into entries
// that run nothing and fails on brackets; doctest's --test-case filter reads '*' and '?' as
// wildcards. This keeps every case reachable from ctest as exactly itself.
TEST_CASE("test case names contain none of the characters ctest or doctest filters misread") {
  namespace fs = std::filesystem;
  int files = 0;
  for (const auto& e : fs::recursive_directory_iterator(mlsys::test::source_dir() / "tests")) {
    if (e.path().extension() != ".cpp") continue;
    ++files;
    std::istringstream in(mlsys::test::read_text(e.path()));
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      auto at = line.find("TEST_CASE(\"");
      if (at == std::string::npos) continue;
      auto end = line.find('"', at + 11);
      CHECK_MESSAGE(line.substr(at + 11, end - at - 11).find_first_of(";[]*?") == std::string::npos,
                    e.path().string() << ":" << n);
    }
  }
  CHECK(files > 10);
}

TEST_CASE("under an MPI launcher ranks share --out and only rank 0 writes the run's files") {
  const std::string launcher2 = "OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=";
  auto no_out = mlsys::test::run_shell(launcher2 + "0 " + MLSYS_BINARY + " simulate");
  CHECK(no_out.exit_code == 2);
  CHECK(contains(no_out.err, "give --out DIR"));
  mlsys::test::TempDir dir("mpi_out");
  auto rank1 = mlsys::test::run_shell(launcher2 + "1 " + MLSYS_BINARY + " simulate --out " + (dir / "run").string());
  CHECK(rank1.exit_code == 0);
  CHECK_FALSE(std::filesystem::exists(dir / "run" / "summary.json"));
  CHECK_FALSE(std::filesystem::exists(dir / "run" / "config.yaml"));
  auto rank0 = mlsys::test::run_shell(launcher2 + "0 " + MLSYS_BINARY + " simulate --out " + (dir / "run").string());
  CHECK(rank0.exit_code == 0);
  CHECK(std::filesystem::exists(dir / "run" / "summary.json"));
}
