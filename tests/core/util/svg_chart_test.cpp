#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/util/svg_chart.hpp"
#include "tests/common/svg_check.hpp"

using namespace mlsys;
using mlsys::test::attr_text;
using mlsys::test::check_unclipped;
using mlsys::test::num_attr;
using mlsys::test::picture;
using mlsys::test::Picture;

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
  // y = 2 is clamped to the top of the plot area.
  const size_t plot = svg.find("class=\"plot\"");
  const size_t y_at = svg.find(" y=\"", plot) + 4;
  CHECK(pts.find("," + svg.substr(y_at, svg.find('"', y_at) - y_at) + " ") != std::string::npos);
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

TEST_CASE("line chart: the legend lies below the plot and inside the picture, however long the names") {
  for (size_t n : {1u, 14u, 40u}) {
    for (size_t len : {3u, 60u}) {
      CAPTURE(n);
      CAPTURE(len);
      std::vector<ChartSeries> s;
      for (size_t k = 0; k < n; ++k) s.push_back({std::string(len, 'x') + std::to_string(k), {0, 1}, {0, 1}});
      std::string svg = line_chart_svg(s, ChartOptions{});
      const double py = attr(svg, "class=\"plot\"", "y"), ph = attr(svg, "class=\"plot\"", "height");
      // Every legend name is shown in full (cut over lines when long), below the plot.
      const size_t legend = svg.find("class=\"legend\"");
      REQUIRE(legend != std::string::npos);
      std::string shown;
      for (size_t p = svg.find("<text", legend); p != std::string::npos; p = svg.find("<text", p + 1)) {
        const size_t open = svg.find('>', p);
        shown += svg.substr(open + 1, svg.find('<', open) - open - 1);
      }
      for (const auto& se : s) CHECK(shown.find(se.name) != std::string::npos);
      CHECK(attr(svg.substr(legend), "<text", "y") > py + ph);
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
  // compute and wait have their colours from the shared table; comm a palette colour of its own.
  CHECK(count(svg, "fill=\"" + table_color("compute") + "\" stroke=\"white\"") == 2);
  CHECK(count(svg, "fill=\"" + table_color("wait") + "\" stroke=\"white\"") == 1);
  CHECK(count(svg, "class=\"bar\"") == 5);
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

// ---- figures for papers (#31.7): size presets, nothing clipped, stable colours, integer ticks ----

namespace {

// A set of charts that stress the layout: long texts, many series, log axes, scatter, error bars,
// many categories with long names.
std::vector<std::string> stress_charts(FigureSize size) {
  std::vector<std::string> out;
  ChartOptions o;
  o.size = size;
  o.title = "Unallocated GPUs as the cluster fills (arrived >= 70%), a rather long title that has to wrap";
  o.x_label = "arrived GPU demand (% of cluster GPU capacity)";
  o.y_label = "stranded GPUs (FGD score for fractional)";
  std::vector<ChartSeries> many;
  for (int k = 0; k < 14; ++k)
    many.push_back({"fifo/consolidate/oracle/load=" + std::to_string(k), {0, 50, 100}, {1.0 * k, 2.0 * k, 1e5 * k}});
  out.push_back(line_chart_svg(many, o));
  ChartOptions lg = o;
  lg.log_x = lg.log_y = true;
  ChartSeries sc{"SchedMate", {3, 40, 9e6}, {2, 80, 1e7}};
  sc.points = true;
  out.push_back(line_chart_svg({sc, {"y = x", {3, 9e6}, {3, 9e6}}}, lg));
  ChartOptions e = o;
  e.title = "Linear probe, 5 labels/class (mean +- sd over 3 seeds)";
  out.push_back(line_chart_svg({{"simclr", {1, 2, 3}, {50, 60, 70}, {3, 2, 1}}, {"coopt", {1, 2, 3}, {55, 65, 99}, {1, 1, 1}}}, e));
  std::vector<std::string> cats;
  std::vector<double> vals;
  for (int k = 0; k < 20; ++k) {
    cats.push_back(k % 3 == 0 ? "vc" + std::to_string(k) : "a-rather-long-virtual-cluster-name-" + std::to_string(k));
    vals.push_back(12345.0 / (k + 1));
  }
  ChartOptions b = o;
  b.bar_values = true;
  out.push_back(stacked_bar_svg(cats, {{"GPU-hours", vals}}, b));
  out.push_back(stacked_bar_svg({"1", "2", "4", "8"}, {{"jobs", {400, 120, 80, 9}}}, b));
  out.push_back(stacked_bar_svg({"fp32", "1-bit, pipelined"}, {{"compute", {3, 3}}, {"communicate", {4, 1}}, {"wait", {0, 0.5}}}, o));
  out.push_back(line_chart_svg({}, o));
  return out;
}

}  // namespace

TEST_CASE("figures: column and page presets are 3.3 and 6.9 inches wide with 8 and 9 pt text") {
  struct Want {
    FigureSize size;
    const char* width;
    double font_pt;
  };
  for (const Want& want : {Want{FigureSize::kColumn, "3.3in", 8}, Want{FigureSize::kPage, "6.9in", 9}}) {
    for (const std::string& svg : stress_charts(want.size)) {
      const std::string root = svg.substr(0, svg.find('>'));
      CHECK(attr_text(root, "width") == want.width);
      const Picture p = picture(svg);
      CHECK(p.points_per_unit == doctest::Approx(1.0));
      CHECK(p.font * p.points_per_unit == doctest::Approx(want.font_pt));
      // The height is given in inches too, matching the viewBox's aspect.
      CHECK(std::stod(attr_text(root, "height")) * 72 == doctest::Approx(p.h).epsilon(1e-3));
    }
  }
  const std::string screen = line_chart_svg({{"a", {0, 1}, {0, 1}}}, ChartOptions{{}, {}, {}, FigureSize::kScreen});
  CHECK(picture(screen).points_per_unit == 0);
  CHECK(picture(screen).font == 12);
  CHECK(figure_size_from_name("page") == FigureSize::kPage);
  CHECK_THROWS_WITH_AS(figure_size_from_name("poster"), doctest::Contains("column, page, screen"), std::invalid_argument);
}

TEST_CASE("figures: no element lies outside the picture, at every preset") {
  for (const auto& [name, size] : figure_sizes()) {
    CAPTURE(name);
    for (const std::string& svg : stress_charts(size)) check_unclipped(svg);
  }
}

TEST_CASE("figures: a name keeps its colour whatever else is in the figure") {
  auto stroke_of = [](const std::string& svg, size_t nth) {
    size_t p = svg.find("<polyline");
    for (size_t k = 0; k < nth; ++k) p = svg.find("<polyline", p + 1);
    return attr_text(svg.substr(p, svg.find('>', p) - p), "stroke");
  };
  ChartSeries simclr{"simclr", {1, 2}, {1, 2}}, coopt{"coopt", {1, 2}, {2, 3}}, raw{"raw", {1, 2}, {0, 1}};
  const std::string a = line_chart_svg({simclr, coopt}, ChartOptions{}), b = line_chart_svg({raw, coopt, simclr}, ChartOptions{});
  CHECK(stroke_of(a, 0) == table_color("simclr"));
  CHECK(stroke_of(b, 2) == table_color("simclr"));
  CHECK(stroke_of(a, 1) == stroke_of(b, 1));
  // Names the table does not list: the same colour in every figure of the same series, and a few
  // of them never share one.
  std::vector<ChartSeries> unknown;
  for (const char* n : {"sjf/fgd/oracle", "fifo/spread/oracle", "las/tetris/oracle", "srtf/random/oracle", "qssf/x/y"})
    unknown.push_back({n, {1, 2}, {1, 2 + 0.1 * static_cast<double>(unknown.size())}});
  const std::string u = line_chart_svg(unknown, ChartOptions{});
  std::set<std::string> colors;
  for (size_t k = 0; k < unknown.size(); ++k) colors.insert(stroke_of(u, k));
  CHECK(colors.size() == unknown.size());
  CHECK(u == line_chart_svg(unknown, ChartOptions{}));
}

TEST_CASE("figures: whole-number axes tick at whole numbers only") {
  ChartOptions o;
  o.x_label = "epoch";
  const std::string two = line_chart_svg({{"train", {1, 2}, {0.5, 0.7}}}, o);
  CHECK(tick_values(two, "xtick") == std::vector<double>{1, 2});
  const std::string queue = line_chart_svg({{"pending", {0.5, 1, 1.5}, {0, 2, 3}}}, o);
  for (double v : tick_values(queue, "ytick")) CHECK(v == std::round(v));
  // Fractions still get fractional ticks.
  const std::string frac = line_chart_svg({{"a", {0.1, 0.2}, {0.1, 0.9}}}, o);
  CHECK(tick_values(frac, "xtick").size() >= 2);
}

TEST_CASE("figures: a log axis labels every tick the same way") {
  ChartOptions o;
  o.log_x = o.log_y = true;
  const std::string svg = line_chart_svg({{"a", {10, 1e7}, {1e-4, 0.1}}}, o);
  for (const char* cls : {"xtick", "ytick"}) {
    CAPTURE(cls);
    const std::string key = std::string("class=\"") + cls + "\"";
    size_t with_e = 0, n = 0;
    for (size_t p = svg.find(key); p != std::string::npos; p = svg.find(key, p + 1), ++n) {
      const size_t open = svg.find('>', p);
      with_e += svg.substr(open + 1, svg.find('<', open) - open - 1).find('e') != std::string::npos ? 1 : 0;
    }
    REQUIRE(n >= 2);
    CHECK((with_e == 0 || with_e == n));
  }
  CHECK(svg.find(">100000<") == std::string::npos);
  // Plain labels: each with the decimals it needs, not those of the smallest tick.
  const std::string plain = line_chart_svg({{"a", {0.1, 1e5}, {0.1, 1e5}}}, o);
  CHECK(plain.find(">0.1<") != std::string::npos);
  CHECK(plain.find(">100000<") != std::string::npos);
  CHECK(plain.find(">100000.0<") == std::string::npos);
}

TEST_CASE("figures: bars are filled, in slots from the axis on, each labelled with its category") {
  ChartOptions o;
  o.bar_values = true;
  const std::string svg = stacked_bar_svg({"1", "2-4", "8+"}, {{"jobs", {40, 12, 3}}}, o);
  const double px = attr(svg, "class=\"plot\"", "x"), pw = attr(svg, "class=\"plot\"", "width");
  size_t bars = 0;
  for (size_t p = svg.find("class=\"bar\""); p != std::string::npos; p = svg.find("class=\"bar\"", p + 1), ++bars) {
    const std::string el = svg.substr(svg.rfind('<', p), svg.find('>', p) - svg.rfind('<', p));
    CHECK(attr_text(el, "fill") != "none");
    CHECK(num_attr(el, "x") > px);
    CHECK(num_attr(el, "x") + num_attr(el, "width") < px + pw);
  }
  CHECK(bars == 3);
  for (const char* c : {">1<", ">2-4<", ">8+<", ">40<", ">12<", ">3<"}) CHECK(svg.find(c) != std::string::npos);
  CHECK(svg.find("class=\"legend\"") == std::string::npos);  // one stack: no legend
}

TEST_CASE("figures: a series drawn exactly over an earlier one is marked and named in the legend") {
  ChartSeries topo{"topology", {70, 80, 90}, {1, 2, 5}}, cons{"consolidate", {70, 80, 90}, {1, 2, 5}};
  const std::string svg = line_chart_svg({topo, cons}, ChartOptions{});
  CHECK(svg.find("consolidate (same as topology)") != std::string::npos);
  const size_t second = svg.find("<polyline", svg.find("<polyline") + 1);
  CHECK(svg.substr(second, svg.find('>', second) - second).find("stroke-dasharray") != std::string::npos);
  CHECK(count(svg, "fill=\"white\" stroke=\"" + table_color("consolidate") + "\"") > 0);  // markers
  const std::string apart = line_chart_svg({topo, {"consolidate", {70, 80, 90}, {1, 3, 5}}}, ChartOptions{});
  CHECK(apart.find("same as") == std::string::npos);
}

TEST_CASE("figures: panels stack down at column width and sit across at page width") {
  ChartOptions c;
  const std::string p1 = line_chart_svg({{"a", {0, 1}, {0, 1}}}, c), p2 = line_chart_svg({{"b", {0, 1}, {1, 0}}}, c);
  const std::string down = stacked_svg({p1, p2}), across = side_by_side_svg({p1, p2});
  CHECK(attr_text(down.substr(0, down.find('>')), "width") == "3.300in");
  CHECK(picture(p1).h + picture(p2).h == doctest::Approx(std::stod(attr_text(down.substr(0, down.find('>')), "height")) * 72).epsilon(1e-3));
  CHECK(attr_text(across.substr(0, across.find('>')), "width") == "6.600in");
}
