#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "gnn/report/figures.hpp"
#include "tests/common/svg_check.hpp"

using namespace mlsys;
using namespace mlsys::gnn;

namespace {

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

// The number of points of each polyline, in drawing order.
std::vector<size_t> polyline_sizes(const std::string& svg) {
  std::vector<size_t> out;
  for (size_t p = svg.find("points=\""); p != std::string::npos; p = svg.find("points=\"", p + 1)) {
    const size_t end = svg.find('"', p + 8);
    out.push_back(count(svg.substr(p + 8, end - p - 8), ","));
  }
  return out;
}

std::vector<EpochRecord> records() {
  std::vector<EpochRecord> r;
  for (int e = 0; e < 6; ++e) {
    EpochRecord x;
    x.epoch = e;
    x.loss = 2.0 - 0.2 * e;
    if (e % 2 == 1) x.train_acc = x.val_acc = x.test_acc = 0.1 * e;  // evaluated every other epoch
    x.mean.compute_s = 0.010 * (e + 1);
    x.mean.quant_s = 0.002;
    x.mean.comm_s = 0.003;
    x.mean.wait_s = 0.001;
    r.push_back(x);
  }
  return r;
}

}  // namespace

TEST_CASE("gnn figures: curves leave out epochs without an evaluation, two panels side by side at page size") {
  std::string svg = curves_svg(records(), "gcn on sbm", FigureSize::kPage);
  CHECK(count(svg, "<svg ") == 3);  // the picture and its two panels
  CHECK(polyline_sizes(svg) == std::vector<size_t>{6, 3, 3, 3});  // loss every epoch, accuracies at 1, 3, 5
  // The three accuracies are equal in these records: the later curves say so.
  CHECK(svg.find(">validation (same as train)</text>") != std::string::npos);
  CHECK(svg == curves_svg(records(), "gcn on sbm", FigureSize::kPage));

  auto none = records();
  for (auto& e : none) e.train_acc = e.val_acc = e.test_acc = -1;
  CHECK(count(curves_svg(none, "t", FigureSize::kColumn), "<svg ") == 2);  // no accuracy panel at all
}

TEST_CASE("gnn figures: at column size the panels stack, 3.3 in wide, and epochs tick at whole numbers") {
  auto two = records();
  two.resize(2);
  const std::string svg = curves_svg(two, "gcn", FigureSize::kColumn);
  CHECK(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"3.300in\"", 0) == 0);
  // Epochs 0 and 1: whole-number ticks on both panels (the old axis read 0.0, 0.2, ..., 1.0).
  size_t ticks = 0;
  for (size_t p = svg.find("class=\"xtick\""); p != std::string::npos; p = svg.find("class=\"xtick\"", p + 1), ++ticks) {
    const size_t open = svg.find('>', p);
    const std::string label = svg.substr(open + 1, svg.find('<', open) - open - 1);
    CHECK(label.find('.') == std::string::npos);
  }
  CHECK(ticks >= 4);
}

TEST_CASE("gnn figures: the time split averages epochs after the first, one stacked bar per configuration") {
  TimeSplit t = mean_time_split(records());
  CHECK(t.compute_s == doctest::Approx(0.040));  // epochs 1..5: 0.02 .. 0.06
  CHECK(t.quant_s == doctest::Approx(0.002));
  CHECK(t.reduce_s == 0);
  std::string one = time_breakdown_svg({{"2 workers, 1/1 bits", t}}, "time", FigureSize::kColumn);
  CHECK(count(one, "stroke=\"white\"") == 4);  // compute, quantize, communicate, wait (no all-reduce)
  CHECK(one.find(">2 workers, 1/1 bits</text>") != std::string::npos);
  std::string two = time_breakdown_svg({{"fp32", t}, {"1-bit", t}}, "time", FigureSize::kColumn);
  CHECK(count(two, "stroke=\"white\"") == 8);
  GnnOptions o;
  o.parts = 4;
  o.fwd_bits = 2;
  o.bwd_bits = 8;
  o.pipeline = true;
  CHECK(run_label(o) == "4 workers, 2/8 bits, pipelined");
}

TEST_CASE("gnn figures: at every size nothing is clipped, at column size 3.3 in wide with 8 pt text") {
  const TimeSplit t = mean_time_split(records());
  const std::vector<BreakdownBar> bars = {{"0000: 2 workers, 32/1 bits, pipelined", t}, {"0001: 2 workers, 1/1 bits, pipelined", t},
                                          {"0002: 8 workers, 2/8 bits", t}};
  for (const auto& [name, size] : figure_sizes()) {
    CAPTURE(name);
    mlsys::test::check_unclipped_panels(curves_svg(records(), "gcn on sbm with a rather long dataset name", size));
    const std::string breakdown = time_breakdown_svg(bars, "gcn on sbm: time per epoch", size);
    mlsys::test::check_unclipped(breakdown);
    if (size == FigureSize::kColumn) {
      const mlsys::test::Picture p = mlsys::test::picture(breakdown);
      CHECK(p.w * p.points_per_unit == doctest::Approx(3.3 * 72));
      CHECK(p.font * p.points_per_unit == doctest::Approx(8));
    }
  }
}
