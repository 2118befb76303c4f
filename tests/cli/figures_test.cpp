// The SVG figures every command writes (#31.7), from the real binary: each lies within its
// preset's width with its preset's text size, and nothing in it lies outside the picture.
#include <doctest/doctest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <string>

#include "tests/common/svg_check.hpp"
#include "tests/common/test_util.hpp"

using mlsys::test::read_text;
using mlsys::test::run_mlsys;

namespace {

// The figures of one run folder: at most `inches` wide, every font size one of `fonts` (pt),
// nothing clipped. Returns how many SVGs it checked.
size_t check_figures(const std::filesystem::path& run, double inches, const std::set<std::string>& fonts) {
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(run)) {
    if (e.path().extension() != ".svg") continue;
    ++n;
    CAPTURE(e.path().string());
    const std::string svg = read_text(e.path());
    const std::string root = svg.substr(0, svg.find('>'));
    const std::string width = mlsys::test::attr_text(root, "width");
    REQUIRE(width.size() > 2);
    CHECK(width.substr(width.size() - 2) == "in");
    CHECK(std::stod(width) <= inches + 1e-6);
    const std::regex font("font-size=\"([0-9.]+)\"");
    for (std::sregex_iterator it(svg.begin(), svg.end(), font), end; it != end; ++it) CHECK(fonts.count((*it)[1].str()) == 1);
    mlsys::test::check_unclipped_panels(svg);
  }
  return n;
}

}  // namespace

TEST_CASE("figures: every command's SVGs fit the column preset (3.3 in, 8 pt) and the page preset (6.9 in)") {
  mlsys::test::TempDir dir("figures");
  struct Run {
    std::string name, args;
    size_t svgs;
  };
  const std::string tiny_coopt =
      "coopt compare --set coopt.data.source=synthetic --set coopt.pool.begin=400 --set coopt.pool.size=300"
      " --set coopt.test_size=200 --set coopt.align.fraction=0.1 --set coopt.student.mlp_arch=mlp:32"
      " --set coopt.student.cnn_arch=cnn:2:16 --set coopt.align.dim=8 --set coopt.student.epochs=2"
      " --set 'coopt.eval.epochs=[1,2]' --set coopt.eval.seeds=2"
      " --set 'coopt.priors=[{name: sup, kind: supervised, arch: \"mlp:16\", rows: [0, 200], epochs: 1}, {name: rnd, kind: random,"
      " arch: \"mlp:20\"}]'";
  const Run runs[] = {
      {"compare", "simulate compare --set tracegen.jobs=200 --set 'sim.compare.policies=[fifo,sjf,qssf]'"
                  " --set 'sim.compare.placers=[consolidate,topology]'", 4},
      {"stats", "simulate stats", 4},
      {"gnn", "train-gnn --set gnn.epochs=4 --set gnn.eval_every=2", 2},
      {"evaluate", "schedmate evaluate", 1},
      {"coopt", tiny_coopt, 3},
  };
  for (const Run& r : runs) {
    CAPTURE(r.name);
    auto column = run_mlsys(r.args + " -q --out " + (dir / r.name).string());
    INFO(column.err);
    REQUIRE(column.exit_code == 0);
    CHECK(check_figures(dir / r.name, 3.3, {"8"}) == r.svgs);
  }
  // Page size: one run of each figure kind (line charts, bars, panels).
  for (const Run& r : {runs[1], runs[2]}) {
    CAPTURE(r.name);
    auto page = run_mlsys(r.args + " -q --set run.figure_size=page --out " + (dir / (r.name + "_page")).string());
    INFO(page.err);
    REQUIRE(page.exit_code == 0);
    // train-gnn's curves at page size are two column-wide 8 pt panels side by side.
    CHECK(check_figures(dir / (r.name + "_page"), 6.9, {"8", "9"}) == r.svgs);
  }
}
