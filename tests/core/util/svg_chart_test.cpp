#include <doctest/doctest.h>

#include <string>

#include "core/util/svg_chart.hpp"

using namespace mlsys;

namespace {

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("line chart: one polyline and legend entry per series, escaped text, deterministic") {
  ChartOptions o;
  o.title = "JCT <CDF> & more";
  o.x_label = "seconds";
  o.y_label = "share";
  std::vector<ChartSeries> s = {{"fifo", {1, 2, 3}, {0.1, 0.5, 1}}, {"sjf", {1, 2}, {0.3, 1}}};
  std::string svg = line_chart_svg(s, o);
  CHECK(svg.rfind("<svg ", 0) == 0);
  CHECK(svg.find("</svg>") != std::string::npos);
  CHECK(count(svg, "<polyline") == 2);
  CHECK(svg.find("JCT &lt;CDF&gt; &amp; more") != std::string::npos);
  CHECK(svg.find(">fifo</text>") != std::string::npos);
  CHECK(svg == line_chart_svg(s, o));
}

TEST_CASE("line chart: log x skips points at or below zero, a fixed y range clamps") {
  ChartOptions o;
  o.log_x = true;
  o.fixed_y_max = true;
  o.y_max = 1;
  std::string svg = line_chart_svg({{"a", {0, 10, 100}, {0.5, 2, 0.5}}}, o);
  CHECK(svg.find("(log scale)") != std::string::npos);
  auto start = svg.find("points=\"");
  REQUIRE(start != std::string::npos);
  std::string pts = svg.substr(start + 8, svg.find('"', start + 8) - start - 8);
  CHECK(count(pts, ",") == 2);  // x = 0 is left out
  // y = 2 is clamped to the top of the plot area (y = 40).
  CHECK(pts.find(",40.0 ") != std::string::npos);
}
