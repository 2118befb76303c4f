// Command-line conventions (#31.5), through the real binary: mode words before paths, repeatable
// -v/-q, unknown arguments exit 2 everywhere, one rule for missing inputs, overridden values never
// expanded, and completion scripts and a man page that name every command.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "core/util/strings.hpp"
#include "tests/common/test_util.hpp"

using mlsys::test::run_mlsys;
using mlsys::test::run_shell;
using mlsys::test::TempDir;
using mlsys::test::write_text;
namespace fs = std::filesystem;

namespace {

bool contains(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

// The names `mlsys --help` lists (the first word of each line under "Commands:" and "Tools:").
std::vector<std::string> listed_commands() {
  auto help = run_mlsys("--help");
  REQUIRE(help.exit_code == 0);
  std::vector<std::string> names;
  bool in = false;
  for (const auto& line : mlsys::split(help.out, '\n')) {
    if (line == "Commands:" || line == "Tools:") in = true;
    else if (in && line.rfind("  ", 0) == 0) names.push_back(line.substr(2, line.find(' ', 2) - 2));
    else in = false;
  }
  // The table holds the four systems and the tools around them.
  for (const char* c : {"train-gnn", "simulate", "schedmate", "coopt", "config", "sweep", "version", "help",
                        "completion", "man"})
    CHECK_MESSAGE(std::find(names.begin(), names.end(), c) != names.end(), c);
  return names;
}

// The words `_mlsys` offers for the command line `line` (the cursor after its last word).
std::vector<std::string> bash_complete(const TempDir& dir, const std::string& line) {
  write_text(dir / "complete.sh", "source <('" + std::string(MLSYS_BINARY) +
                                      "' completion bash)\n"
                                      "read -r -a COMP_WORDS <<< \"$1\"\n"
                                      "[[ \"$1\" == *' ' ]] && COMP_WORDS+=('')\n"
                                      "COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))\n"
                                      "_mlsys\n"
                                      "printf '%s\\n' \"${COMPREPLY[@]}\"\n");
  auto r = run_shell("cd '" + dir.path().string() + "' && bash complete.sh '" + line + "'");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  return mlsys::split(r.out, '\n');
}

bool has(const std::vector<std::string>& words, const std::string& w) {
  return std::find(words.begin(), words.end(), w) != words.end();
}

}  // namespace

TEST_CASE("cli conventions: a mode word is the mode even beside a folder of that name") {
  TempDir dir("modes");
  // One mode of each command that has modes (each command's --help lists them).
  const std::vector<std::pair<std::string, std::string>> modes = {
      {"coopt", "compare"}, {"simulate", "compare"}, {"schedmate", "evaluate"}, {"train-gnn", "convert"}};
  for (const auto& [cmd, mode] : modes) {
    fs::create_directories(dir / mode);  // what `--out <mode>` leaves behind
    auto r = run_mlsys("config show " + cmd + " " + mode, dir.path().string());
    CHECK_MESSAGE(r.exit_code == 0, cmd << " " << mode << ": " << r.err);
    CHECK_MESSAGE(contains(r.out, "mode: " + mode), cmd);
  }
  // With a config file after it, the word is still the mode and the file still a file.
  write_text(dir / "cfg.yaml", "run:\n  seed: 4\n");
  auto r = run_mlsys("config show coopt compare cfg.yaml", dir.path().string());
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  CHECK(contains(r.out, "mode: compare"));
  CHECK(contains(r.out, "seed: 4"));
  // A mode word given after a config file says where it goes.
  r = run_mlsys("config show coopt cfg.yaml priors", dir.path().string());
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "is a mode: give it first"));
  // The sweep's modes too: a folder named `list` does not hide `mlsys sweep list`.
  fs::create_directories(dir / "list");
  write_text(dir / "s.yaml", "sweep:\n  command: simulate\n  seeds: [1, 2]\n");
  r = run_mlsys("sweep list s.yaml", dir.path().string());
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  CHECK(contains(r.out + r.err, "2"));
}

TEST_CASE("cli conventions: -v and -q repeat, one log level step each, from the configured level") {
  TempDir dir("verbosity");
  write_text(dir / "error.yaml", "run:\n  log_level: error\n");
  const std::string file = (dir / "error.yaml").string();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"-v", "debug"},           {"-vv", "debug"},  // debug is the most there is
      {"-q", "warn"},            {"-qq", "error"},          {"-qqqqq", "quiet"},
      {file + " -v", "warn"},    {file + " -vv", "info"},   {file + " -v -v", "info"},
      {file + " --verbose -v", "info"}, {file + " -vvq", "warn"}, {"--set run.log_level=quiet -v", "error"}};
  for (const auto& [args, level] : cases) {
    auto r = run_mlsys("config show simulate " + args);
    CHECK_MESSAGE(r.exit_code == 0, args << ": " << r.err);
    CHECK_MESSAGE(contains(r.out, "log_level: " + level + "\n"), args << " should give " << level);
  }
  write_text(dir / "s.yaml", "sweep:\n  command: simulate\n");
  auto r = run_mlsys("sweep list s.yaml -vv", dir.path().string());
  CHECK_MESSAGE(r.exit_code == 0, r.err);
}

TEST_CASE("cli conventions: an unknown argument exits 2 for every command, with the nearest option") {
  for (const auto& name : listed_commands()) {
    for (const std::string& extra : {std::string(" --bogus"), std::string(" -Z")}) {
      // `config` and `help` reach their options through a subcommand or a topic word too.
      for (const std::string& prefix : {std::string(""), name == "config" ? std::string(" docs") : std::string("")}) {
        auto r = run_mlsys(name + prefix + extra);
        CHECK_MESSAGE(r.exit_code == 2, name << prefix << extra << " exited " << r.exit_code);
        CHECK_MESSAGE(contains(r.err, extra.substr(1)), name << prefix << extra << ": " << r.err);
      }
    }
  }
  for (const char* args : {"version extra", "man extra", "help simulate extra", "completion fish",
                                  "completion bash zsh", "config shw simulate", "help simulat"}) {
    auto r = run_mlsys(args);
    CHECK_MESSAGE(r.exit_code == 2, args << " exited " << r.exit_code);
  }
  auto r = run_mlsys("simulate --polcy fifo");
  CHECK(r.exit_code == 2);
  CHECK_MESSAGE(contains(r.err, "did you mean '--policy'?"), r.err);
  r = run_mlsys("config show coopt --overwirte");
  CHECK(r.exit_code == 2);
  CHECK_MESSAGE(contains(r.err, "did you mean '--overwrite'?"), r.err);
  r = run_mlsys("sweep --ovewrite x.yaml");
  CHECK(r.exit_code == 2);
  CHECK_MESSAGE(contains(r.err, "did you mean '--overwrite'?"), r.err);
  r = run_mlsys("config shw simulate");
  CHECK_MESSAGE(contains(r.err, "did you mean 'show'?"), r.err);
  r = run_mlsys("completion bsh");
  CHECK_MESSAGE(contains(r.err, "did you mean 'bash'?"), r.err);
}

TEST_CASE("cli conventions: a missing or unusable input the user named exits 2, by flag or by config key") {
  TempDir dir("inputs");
  const std::string out = " -q --out " + (dir / "run").string() + " --overwrite";
  struct Case {
    std::string args, message;
  };
  write_text(dir / "trace.yaml", "trace:\n  path: " + (dir / "none.csv").string() + "\n");
  fs::create_directories(dir / "folder");
  const std::vector<Case> cases = {
      {"train-gnn --graph /nonexistent/graph", "gnn.graph.path (--graph) = '/nonexistent/graph': no such file or folder"},
      {"simulate --trace /nonexistent/t.csv", "trace.path = '/nonexistent/t.csv': no such file or folder"},
      {"simulate " + (dir / "trace.yaml").string(), "trace.path = '" + (dir / "none.csv").string() + "'"},
      {"simulate --set sim.cluster.kind=philly --set sim.cluster.path=" + (dir / "folder").string(),
       "sim.cluster.path = '" + (dir / "folder").string() + "': a folder, not a file"},
      {"schedmate advise --jobs /nonexistent/jobs.jsonl", "schedmate.jobs = '/nonexistent/jobs.jsonl'"},
      {"coopt --set coopt.data.source=idx --set coopt.data.dir=/nonexistent/idx", "coopt.data.dir = '/nonexistent/idx'"},
      {"train-gnn --resume /nonexistent/checkpoint.bin", "gnn.resume (--resume) = '/nonexistent/checkpoint.bin'"},
      {"schedmate evaluate --set schedmate.evaluate.labelled_logs=/nonexistent/logs",
       "schedmate.evaluate.labelled_logs = '/nonexistent/logs'"},
      {"schedmate evaluate --set schedmate.evaluate.mlperf_logs=" + (dir / "folder").string() +
           " --set schedmate.evaluate.mlperf_runs=/nonexistent/runs.csv",
       "schedmate.evaluate.mlperf_runs = '/nonexistent/runs.csv'"},
  };
  for (const auto& c : cases) {
    auto r = run_mlsys(c.args + out);
    CHECK_MESSAGE(r.exit_code == 2, c.args << " exited " << r.exit_code << ": " << r.err);
    CHECK_MESSAGE(contains(r.err, c.message), c.args << ": " << r.err);
  }
}

TEST_CASE("cli conventions: a value replaced by a later file or --set is never expanded") {
  TempDir dir("override");
  write_text(dir / "data.yaml", "trace:\n  path: ${MLSYS_TEST_NOT_SET}/trace.csv\n");
  write_text(dir / "local.yaml", "trace:\n  path: /tmp/local.csv\n");
  const std::string bin = "env -u MLSYS_TEST_NOT_SET " + std::string(MLSYS_BINARY) + " config show simulate ";
  const std::string data = (dir / "data.yaml").string();
  auto r = run_shell(bin + data + " --set trace.path=/tmp/mine.csv");
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  CHECK(contains(r.out, "path: /tmp/mine.csv"));
  r = run_shell(bin + data + " " + (dir / "local.yaml").string());
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  CHECK(contains(r.out, "path: /tmp/local.csv"));
  r = run_shell(bin + data + " --trace /tmp/flag.csv");
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  CHECK(contains(r.out, "path: /tmp/flag.csv"));
  // The final value is still expanded, and an unset variable in it still stops the run.
  r = run_shell(bin + data);
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "MLSYS_TEST_NOT_SET"));
  r = run_shell(bin + (dir / "local.yaml").string() + " --set 'trace.path=${MLSYS_TEST_NOT_SET}/x.csv'");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.err, "MLSYS_TEST_NOT_SET"));
  r = run_shell("MLSYS_TEST_SET=/data " + std::string(MLSYS_BINARY) + " config show simulate --set trace.path=/tmp/a.csv " +
                "--set 'trace.path=${MLSYS_TEST_SET}/b.csv'");
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  CHECK(contains(r.out, "path: /data/b.csv"));
}

TEST_CASE("cli conventions: bash completion offers every command, its modes, options and keys") {
  TempDir dir("completion");
  auto words = bash_complete(dir, "mlsys ");
  for (const auto& c : listed_commands()) CHECK_MESSAGE(has(words, c), c << " missing from the bash completion");
  CHECK(has(bash_complete(dir, "mlsys coopt "), "compare"));
  CHECK(has(bash_complete(dir, "mlsys sweep "), "merge"));
  CHECK(has(bash_complete(dir, "mlsys completion "), "zsh"));
  CHECK(has(bash_complete(dir, "mlsys simulate --pol"), "--policy"));
  CHECK(has(bash_complete(dir, "mlsys simulate --policy "), "srtf"));
  CHECK(has(bash_complete(dir, "mlsys simulate --set run.se"), "run.seed="));
  auto zsh = run_mlsys("completion zsh");
  REQUIRE(zsh.exit_code == 0);
  CHECK(contains(zsh.out, "#compdef mlsys"));
  for (const auto& c : listed_commands()) CHECK_MESSAGE(contains(zsh.out, "\n    " + c + ")\n"), c << " missing from zsh");
  if (!run_shell("command -v zsh").out.empty()) {
    write_text(dir / "_mlsys", zsh.out);
    auto syntax = run_shell("zsh -n '" + (dir / "_mlsys").string() + "'");
    CHECK_MESSAGE(syntax.exit_code == 0, syntax.err);
  }
}

TEST_CASE("cli conventions: the man page names every command and every config key, and renders cleanly") {
  auto man = run_mlsys("man");
  REQUIRE(man.exit_code == 0);
  for (const auto& c : listed_commands()) {
    std::string roff_name;  // roff writes a hyphen as \-
    for (char ch : c) roff_name += ch == '-' ? std::string("\\-") : std::string(1, ch);
    CHECK_MESSAGE(contains(man.out, ".SS \"mlsys " + roff_name), c << " missing from the man page");
  }
  for (const char* key : {"run.seed", "sim.policy", "gnn.graph.path", "coopt.data.dir", "schedmate.jobs"})
    CHECK_MESSAGE(contains(man.out, std::string(".B ") + key), key);
  if (!run_shell("command -v groff").out.empty()) {
    TempDir dir("man");
    write_text(dir / "mlsys.1", man.out);
    auto rendered = run_shell("groff -man -Tutf8 -ww -z '" + (dir / "mlsys.1").string() + "'");
    CHECK_MESSAGE(rendered.exit_code == 0, rendered.err);
    CHECK_MESSAGE(rendered.err.empty(), rendered.err);  // -ww: every groff warning shows here
  }
}
