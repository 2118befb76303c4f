#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <string>
#include <vector>

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

namespace {

// The numbers shown by the tick labels of one axis ("xtick" or "ytick"), in order.
std::vector<double> tick_values(const std::string& svg, const std::string& cls) {
  std::vector<double> out;
  const std::string key = "class=\"" + cls + "\"";
  for (size_t p = svg.find(key); p != std::string::npos; p = svg.find(key, p + 1)) {
    const size_t open = svg.find('>', p), close = svg.find('<', open);
    out.push_back(std::stod(svg.substr(open + 1, close - open - 1)));
  }
  return out;
}

// True when v is 1, 2 or 5 times a power of ten (within rounding).
bool is_125(double v) {
  if (!(v > 0)) return false;
  const double mag = std::pow(10.0, std::floor(std::log10(v) + 1e-9));
  const double m = v / mag;
  return std::fabs(m - 1) < 1e-6 || std::fabs(m - 2) < 1e-6 || std::fabs(m - 5) < 1e-6;
}

// Ticks are consecutive multiples of one 1/2/5 x 10^k step.
void check_nice(const std::vector<double>& t) {
  REQUIRE(t.size() >= 2);
  const double step = t[1] - t[0];
  CHECK(is_125(step));
  for (size_t i = 0; i < t.size(); ++i) {
    CHECK(t[i] == doctest::Approx(t[0] + step * static_cast<double>(i)).epsilon(1e-9));
    const double k = t[i] / step;
    CHECK(std::fabs(k - std::round(k)) < 1e-6);
  }
}

// The value of attribute `name` in the first element that contains `marker`.
double attr(const std::string& svg, const std::string& marker, const std::string& name) {
  const size_t p = svg.find(marker);
  REQUIRE(p != std::string::npos);
  const size_t end = svg.find('>', p), start = svg.rfind('<', p);
  const std::string el = svg.substr(start, end - start);
  const size_t a = el.find(" " + name + "=\"");
  REQUIRE(a != std::string::npos);
  return std::stod(el.substr(a + name.size() + 3));
}

}  // namespace

TEST_CASE("line chart: tick labels are nice numbers for awkward ranges") {
  const std::vector<std::pair<double, double>> ranges = {{0, 1659}, {0, 14.3}, {0.003, 0.0071}, {-3.7, 152}, {1e6, 3.3e7},
                                                         {0, 0.87}, {17, 17.4},  {2, 1660},        {0, 1},      {-0.5, 0.5}};
  for (const auto& [lo, hi] : ranges) {
    CAPTURE(lo);
    CAPTURE(hi);
    ChartOptions o;
    o.y_min = lo;
    std::string svg = line_chart_svg({{"a", {lo, (lo + hi) / 2, hi}, {lo, hi, lo}}}, o);
    auto xs = tick_values(svg, "xtick"), ys = tick_values(svg, "ytick");
    check_nice(xs);
    check_nice(ys);
    CHECK(xs.size() <= 11);
    CHECK(xs.front() >= lo - 1e-9);
    CHECK(xs.back() <= hi + 1e-9);
    CHECK(ys.back() >= hi - 1e-9);  // the y axis reaches the data maximum
  }
  // The old writer's labels for a 0..1660 axis were 0, 332, 664, ...; none of those now.
  CHECK(nice_ticks(0, 1660) == std::vector<double>{0, 500, 1000, 1500});
  CHECK(nice_step(14) == 2);
  CHECK(nice_step(0.87) == doctest::Approx(0.2));
}

TEST_CASE("line chart: log axes tick at 1, 2, 5 x 10^k and leave out non-positive values") {
  for (const auto& [lo, hi] : std::vector<std::pair<double, double>>{{1, 1e6}, {3, 70}, {1.5, 14}, {0.02, 3e4}, {1, 1e20}}) {
    CAPTURE(lo);
    CAPTURE(hi);
    ChartOptions o;
    o.log_x = o.log_y = true;
    std::string svg = line_chart_svg({{"a", {0, lo, hi}, {-1, lo, hi}}}, o);
    for (const char* cls : {"xtick", "ytick"}) {
      auto t = tick_values(svg, cls);
      REQUIRE(t.size() >= 2);
      for (double v : t) CHECK(is_125(v));
    }
    auto start = svg.find("points=\"");
    std::string pts = svg.substr(start + 8, svg.find('"', start + 8) - start - 8);
    CHECK(count(pts, ",") == 2);
  }
}

TEST_CASE("line chart: 14 series get 14 distinct (colour, dash) pairs, series k and k+10 differ") {
  std::vector<ChartSeries> s;
  for (int k = 0; k < 14; ++k) s.push_back({"config " + std::to_string(k), {1, 2, 3}, {1.0 * k, 2.0 * k, 3.0 * k}});
  std::string svg = line_chart_svg(s, ChartOptions{});
  std::set<std::pair<std::string, std::string>> styles;
  for (size_t p = svg.find("<polyline"); p != std::string::npos; p = svg.find("<polyline", p + 1)) {
    const std::string el = svg.substr(p, svg.find('>', p) - p);
    auto value = [&](const std::string& name) {
      const size_t a = el.find(" " + name + "=\"");
      if (a == std::string::npos) return std::string();
      return el.substr(a + name.size() + 3, el.find('"', a + name.size() + 3) - a - name.size() - 3);
    };
    styles.insert({value("stroke"), value("stroke-dasharray")});
  }
  CHECK(styles.size() == 14);
  CHECK(count(svg, "<circle") > 0);  // the second style also has markers
}

TEST_CASE("line chart: the legend lies right of the plot and inside the picture, however long the names") {
  for (size_t n : {1u, 14u, 40u}) {
    for (size_t len : {3u, 60u}) {
      CAPTURE(n);
      CAPTURE(len);
      std::vector<ChartSeries> s;
      for (size_t k = 0; k < n; ++k) s.push_back({std::string(len, 'x') + std::to_string(k), {0, 1}, {0, 1}});
      std::string svg = line_chart_svg(s, ChartOptions{});
      const double W = attr(svg, "<svg ", "width"), H = attr(svg, "<svg ", "height");
      const double px = attr(svg, "class=\"plot\"", "x"), pw = attr(svg, "class=\"plot\"", "width");
      const double lx = attr(svg, "class=\"legend\"", "x"), ly = attr(svg, "class=\"legend\"", "y");
      const double lw = attr(svg, "class=\"legend\"", "width"), lh = attr(svg, "class=\"legend\"", "height");
      CHECK(lx >= px + pw);
      CHECK(lx + lw <= W);
      CHECK(ly >= 0);
      CHECK(ly + lh <= H);
      CHECK(lw >= 7.0 * static_cast<double>(len));  // wide enough for the longest name
    }
  }
}

TEST_CASE("line chart: error bars span y +- err and stretch the y axis") {
  ChartOptions o;
  o.fixed_y_max = false;
  std::string with = line_chart_svg({{"a", {1, 2, 3}, {10, 20, 30}, {5, 0, 8}}}, o);
  std::string without = line_chart_svg({{"a", {1, 2, 3}, {10, 20, 30}}}, o);
  CHECK(count(with, "<path d=\"M") == 2);  // the point with err 0 has none
  CHECK(count(without, "<path d=\"M") == 0);
  CHECK(tick_values(with, "ytick").back() >= 38);
}

TEST_CASE("stacked bars: one rect per positive segment, heights add up, legend per stack") {
  ChartOptions o;
  o.title = "time per epoch";
  std::string svg = stacked_bar_svg({"fp32", "1-bit"}, {{"compute", {3, 3}}, {"comm", {4, 1}}, {"wait", {0, 0.5}}}, o);
  CHECK(count(svg, "fill=\"#1f77b4\" stroke=\"white\"") == 2);
  CHECK(count(svg, "fill=\"#d62728\" stroke=\"white\"") == 2);
  CHECK(count(svg, "fill=\"#2ca02c\" stroke=\"white\"") == 1);
  CHECK(svg.find(">fp32</text>") != std::string::npos);
  CHECK(svg.find(">wait</text>") != std::string::npos);
  check_nice(tick_values(svg, "ytick"));
  CHECK(tick_values(svg, "ytick").back() >= 7);
  CHECK(svg == stacked_bar_svg({"fp32", "1-bit"}, {{"compute", {3, 3}}, {"comm", {4, 1}}, {"wait", {0, 0.5}}}, o));
}

TEST_CASE("svg chart: a points series is a scatter of dots without a line, on log axes too") {
  ChartSeries s{"pred", {10, 100, 1000}, {20, 90, 2000}};
  s.points = true;
  ChartSeries ref{"y = x", {10, 1000}, {10, 1000}};
  ChartOptions o;
  o.log_x = o.log_y = true;
  const std::string svg = line_chart_svg({s, ref}, o);
  size_t dots = 0;
  for (size_t at = svg.find("fill-opacity"); at != std::string::npos; at = svg.find("fill-opacity", at + 1)) ++dots;
  CHECK(dots == 3);
  size_t lines = 0;
  for (size_t at = svg.find("<polyline"); at != std::string::npos; at = svg.find("<polyline", at + 1)) ++lines;
  CHECK(lines == 1);  // only the reference line
  CHECK(svg.find(">pred<") != std::string::npos);
  CHECK(svg == line_chart_svg({s, ref}, o));
}
