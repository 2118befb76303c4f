#include "core/util/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

namespace mlsys {
namespace {

const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
constexpr size_t kNumColors = sizeof(kColors) / sizeof(kColors[0]);
// Series k uses colour k % 10 and style k / 10: style 0 is a plain solid line, later styles add a
// dash pattern and a marker, so series k and k + 10 never look the same.
const char* kDashes[] = {"", "7,3", "2,2", "9,3,2,3"};
constexpr size_t kNumStyles = sizeof(kDashes) / sizeof(kDashes[0]);

// Geometry (pixels). Text widths are estimated from the character count (no font metrics).
constexpr double kPlotW = 490, kPlotH = 350, kLeft = 70, kTop = 40, kBottom = 50, kGap = 16;
constexpr double kCharW = 7, kTitleCharW = 8.5, kEntryH = 18;
constexpr size_t kMaxPoints = 2000;  // polylines are thinned to about this many points
constexpr size_t kMaxMarkers = 12, kMaxErrorBars = 60;

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else if (c == '"') o += "&quot;";
    else o += c;
  }
  return o;
}

double text_w(const std::string& s, double char_w = kCharW) { return char_w * static_cast<double>(s.size()); }

// A tick label: fixed-point with as many decimals as the step needs; exponent form for very large
// or very small magnitudes.
std::string tick_label(double v, double step) {
  const double a = std::fabs(v);
  if (v != 0 && (a >= 1e6 || a < 1e-3)) {  // 1e6, 2.5e-5: without "+" or leading zeros in the exponent
    std::string g = fmt::format("{:g}", v);
    const size_t e = g.find('e');
    if (e == std::string::npos) return g;
    std::string mant = g.substr(0, e), ex = g.substr(e + 1);
    const bool neg = ex[0] == '-';
    ex = ex.substr(ex[0] == '-' || ex[0] == '+' ? 1 : 0);
    ex = ex.substr(std::min(ex.find_first_not_of('0'), ex.size() - 1));
    return mant + "e" + (neg ? "-" : "") + ex;
  }
  const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
  return fmt::format("{:.{}f}", v, decimals);
}

struct Axis {
  bool log = false;
  double lo = 0, hi = 1;            // in plot units (log10 of the value for a log axis)
  std::vector<double> ticks;        // in plot units
  std::vector<std::string> labels;  // values as shown
};

// Linear axis over [lo, hi]; when round_hi, hi grows to the next tick.
Axis linear_axis(double lo, double hi, bool round_hi) {
  Axis a;
  if (!(hi > lo)) hi = lo + 1;
  double step = nice_step(hi - lo);
  if (round_hi) {
    hi = std::ceil(hi / step - 1e-9) * step;
    step = nice_step(hi - lo);
  }
  a.lo = lo;
  a.hi = hi;
  a.ticks = nice_ticks(lo, hi);
  for (double t : a.ticks) a.labels.push_back(tick_label(t, step));
  return a;
}

// Log axis over the positive values [lo, hi], widened to whole decades when it spans more than one.
// Ticks at decades (every d-th when there are many), else at 1, 2, 5 x 10^k, else linear ticks.
Axis log_axis(double lo, double hi) {
  Axis a;
  a.log = true;
  double l0 = std::log10(lo), l1 = std::log10(hi);
  if (!(l1 > l0)) l1 = l0 + 1;
  if (l1 - l0 >= 1) {
    l0 = std::floor(l0 + 1e-9);
    l1 = std::ceil(l1 - 1e-9);
  }
  a.lo = l0;
  a.hi = l1;
  const int d0 = static_cast<int>(std::ceil(l0 - 1e-9)), d1 = static_cast<int>(std::floor(l1 + 1e-9));
  const int decades = d1 - d0 + 1;
  if (decades >= 3) {
    const int every = (decades + 7) / 8;
    for (int d = d0; d <= d1; ++d)
      if ((d - d0) % every == 0) a.ticks.push_back(d);
  } else {
    for (int d = d0 - 1; d <= d1; ++d)
      for (double m : {1.0, 2.0, 5.0}) {
        const double t = std::log10(m) + d;
        if (t >= l0 - 1e-9 && t <= l1 + 1e-9) a.ticks.push_back(t);
      }
  }
  if (a.ticks.size() >= 2) {
    for (double t : a.ticks) {
      const double v = std::pow(10.0, t);
      a.labels.push_back(tick_label(v, std::pow(10.0, std::floor(t + 1e-9))));
    }
    return a;
  }
  a.ticks.clear();
  const double v0 = std::pow(10.0, l0), v1 = std::pow(10.0, l1), step = nice_step(v1 - v0);
  for (double v : nice_ticks(v0, v1)) {
    if (v <= 0) continue;
    a.ticks.push_back(std::log10(v));
    a.labels.push_back(tick_label(v, step));
  }
  return a;
}

// Where a value lands on an axis (plot units), or NaN when a log axis cannot show it.
double to_axis(const Axis& a, double v) {
  if (!std::isfinite(v)) return NAN;
  if (!a.log) return v;
  return v > 0 ? std::log10(v) : NAN;
}

struct LegendEntry {
  std::string name, color, dash;
  int marker = 0;  // 0 none, 1 circle, 2 square, 3 triangle
  bool swatch = false;  // a filled box (bar charts) instead of a line
};

std::string marker_svg(int marker, double x, double y, const std::string& col) {
  switch (marker) {
    case 1:
      return fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"white\" stroke=\"{}\" stroke-width=\"1.5\"/>\n", x, y,
                         col);
    case 2:
      return fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"7\" height=\"7\" fill=\"white\" stroke=\"{}\" stroke-width=\"1.5\"/>\n",
                         x - 3.5, y - 3.5, col);
    case 3:
      return fmt::format("<path d=\"M{:.1f},{:.1f} L{:.1f},{:.1f} L{:.1f},{:.1f} Z\" fill=\"white\" stroke=\"{}\" stroke-width=\"1.5\"/>\n",
                         x, y - 4, x + 4, y + 3.5, x - 4, y + 3.5, col);
    default: return "";
  }
}

std::string dash_attr(const std::string& dash) { return dash.empty() ? "" : fmt::format(" stroke-dasharray=\"{}\"", dash); }

// The frame shared by both chart kinds: picture size, title, plot rectangle, y ticks and grid,
// axis labels and the legend right of the plot. `body` is drawn inside the plot area.
struct Frame {
  double left = kLeft, plot_w = kPlotW, plot_h = kPlotH, bottom = kBottom;
  std::string render(const ChartOptions& o, const Axis& y, const std::string& x_ticks_svg, const std::string& body,
                     const std::vector<LegendEntry>& legend) const {
    double legend_w = 0;
    for (const auto& e : legend) legend_w = std::max(legend_w, 44 + text_w(e.name));
    const double legend_h = legend.empty() ? 0 : 8 + kEntryH * static_cast<double>(legend.size());
    const double lx = left + plot_w + kGap, ly = kTop;
    double W = legend.empty() ? left + plot_w + 30 : lx + legend_w + 10;
    W = std::max(W, left + text_w(o.title, kTitleCharW) + 10);
    const double H = std::max(kTop + plot_h + bottom, ly + legend_h + 10);
    auto py = [&](double v) { return kTop + plot_h - (v - y.lo) / (y.hi - y.lo) * plot_h; };
    std::string s = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" "
        "font-size=\"12\">\n"
        "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        "<text x=\"{2}\" y=\"22\" font-size=\"15\">{3}</text>\n",
        W, H, left, esc(o.title));
    for (size_t k = 0; k < y.ticks.size(); ++k) {
      const double p = py(y.ticks[k]);
      s += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#eee\"/>\n", left, p, left + plot_w, p);
      s += fmt::format("<text class=\"ytick\" x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", left - 6, p + 4, y.labels[k]);
    }
    s += x_ticks_svg;
    s += body;
    s += fmt::format("<rect class=\"plot\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#444\"/>\n", left, kTop,
                     plot_w, plot_h);
    std::string xl = o.x_label + (o.log_x ? " (log scale)" : "");
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", left + plot_w / 2, kTop + plot_h + bottom - 12,
                     esc(xl));
    const std::string yl = o.y_label + (o.log_y ? " (log scale)" : "");
    s += fmt::format("<text x=\"16\" y=\"{0:.1f}\" transform=\"rotate(-90 16 {0:.1f})\" text-anchor=\"middle\">{1}</text>\n",
                     kTop + plot_h / 2, esc(yl));
    if (!legend.empty()) {
      s += fmt::format("<rect class=\"legend\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"white\" stroke=\"#ccc\"/>\n", lx, ly,
                       legend_w, legend_h);
      for (size_t k = 0; k < legend.size(); ++k) {
        const auto& e = legend[k];
        const double ey = ly + 4 + kEntryH * (static_cast<double>(k) + 0.5);
        if (e.swatch) {
          s += fmt::format("<rect x=\"{}\" y=\"{:.1f}\" width=\"24\" height=\"10\" fill=\"{}\"/>\n", lx + 8, ey - 5, e.color);
        } else {
          s += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"2.5\"{}/>\n", lx + 6, ey,
                           lx + 34, ey, e.color, dash_attr(e.dash));
          s += marker_svg(e.marker, lx + 20, ey, e.color);
        }
        s += fmt::format("<text x=\"{}\" y=\"{:.1f}\">{}</text>\n", lx + 40, ey + 4, esc(e.name));
      }
    }
    s += "</svg>\n";
    return s;
  }
};

}  // namespace

double nice_step(double range, int target) {
  if (!(range > 0) || !std::isfinite(range)) return 1;
  const double raw = range / std::max(1, target);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / mag;
  return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

std::vector<double> nice_ticks(double lo, double hi, int target) {
  std::vector<double> out;
  if (!std::isfinite(lo) || !std::isfinite(hi)) return out;
  if (hi < lo) std::swap(lo, hi);
  if (hi == lo) return {lo};
  const double step = nice_step(hi - lo, target);
  const double eps = 1e-9 * step;
  for (auto k = static_cast<int64_t>(std::ceil((lo - eps) / step)); k * step <= hi + eps; ++k) {
    const double t = static_cast<double>(k) * step;
    out.push_back(t == 0 ? 0.0 : t);  // no "-0"
  }
  return out;
}

std::string side_by_side_svg(const std::vector<std::string>& charts) {
  // Each chart starts with <svg ... width="W" height="H" ...>: nest it, shifted right.
  auto number_after = [](const std::string& svg, const std::string& key) {
    const size_t p = svg.find(key);
    return p == std::string::npos ? 0.0 : std::strtod(svg.c_str() + p + key.size(), nullptr);
  };
  double w = 0, h = 0;
  std::string inner;
  for (const auto& c : charts) {
    if (c.rfind("<svg ", 0) != 0) continue;
    inner += fmt::format("<svg x=\"{}\" y=\"0\" ", w) + c.substr(5);
    w += number_after(c, " width=\"");
    h = std::max(h, number_after(c, " height=\""));
  }
  return fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\">\n", w, h) + inner +
         "</svg>\n";
}

std::string line_chart_svg(const std::vector<ChartSeries>& series, const ChartOptions& o) {
  // Data ranges (in values; log axes look at positive values only).
  double xmin = 1e300, xmax = -1e300, ymin = 1e300, ymax = -1e300;
  for (const auto& s : series)
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      const double x = s.x[i], y = s.y[i];
      if (!std::isfinite(x) || !std::isfinite(y) || (o.log_x && x <= 0) || (o.log_y && y <= 0)) continue;
      const double e = i < s.y_err.size() && s.y_err[i] > 0 ? s.y_err[i] : 0;
      xmin = std::min(xmin, x);
      xmax = std::max(xmax, x);
      ymin = std::min(ymin, o.log_y && y - e <= 0 ? y : y - e);
      ymax = std::max(ymax, y + e);
    }
  const bool empty = xmin > xmax;
  Axis xa = o.log_x ? log_axis(empty ? 1 : xmin, empty ? 10 : xmax) : linear_axis(empty ? 0 : xmin, empty ? 1 : xmax, false);
  Axis ya;
  if (o.log_y) {
    const double lo = o.y_min > 0 ? o.y_min : (empty ? 1 : ymin);
    const double hi = o.fixed_y_max ? o.y_max : (empty ? 10 : ymax);
    ya = log_axis(lo, std::max(hi, lo));
  } else {
    const double hi = o.fixed_y_max ? o.y_max : (empty ? o.y_min + 1 : ymax);
    ya = linear_axis(o.y_min, hi, !o.fixed_y_max);
  }
  Frame f;
  auto px = [&](double v) { return f.left + (v - xa.lo) / (xa.hi - xa.lo) * f.plot_w; };
  auto py = [&](double v) { return kTop + f.plot_h - (std::clamp(v, ya.lo, ya.hi) - ya.lo) / (ya.hi - ya.lo) * f.plot_h; };

  std::string xt;
  for (size_t k = 0; k < xa.ticks.size(); ++k) {
    const double p = px(xa.ticks[k]);
    xt += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#eee\"/>\n", p, kTop, kTop + f.plot_h);
    xt += fmt::format("<text class=\"xtick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", p, kTop + f.plot_h + 16,
                      xa.labels[k]);
  }
  std::string body;
  std::vector<LegendEntry> legend;
  for (size_t k = 0; k < series.size(); ++k) {
    const auto& se = series[k];
    const std::string col = kColors[k % kNumColors];
    const size_t style = (k / kNumColors) % kNumStyles;
    const std::string dash = kDashes[style];
    const int marker = static_cast<int>(style);
    std::vector<std::pair<double, double>> pts;  // pixels
    std::string err;
    const size_t n = std::min(se.x.size(), se.y.size());
    const size_t step = std::max<size_t>(1, n / kMaxPoints);
    const size_t err_step = std::max<size_t>(1, n / kMaxErrorBars);
    for (size_t i = 0; i < n; ++i) {
      const double x = to_axis(xa, se.x[i]), y = to_axis(ya, se.y[i]);
      if (std::isnan(x) || std::isnan(y)) continue;
      if (i % step == 0) pts.emplace_back(px(x), py(y));
      if (i % err_step == 0 && i < se.y_err.size() && se.y_err[i] > 0) {
        const double lo = to_axis(ya, se.y[i] - se.y_err[i]), hi = to_axis(ya, se.y[i] + se.y_err[i]);
        const double ylo = std::isnan(lo) ? kTop + f.plot_h : py(lo), yhi = py(hi), xp = px(x);
        err += fmt::format("<path d=\"M{0:.1f},{1:.1f} V{2:.1f} M{3:.1f},{1:.1f} H{4:.1f} M{3:.1f},{2:.1f} H{4:.1f}\" stroke=\"{5}\"/>\n",
                           xp, ylo, yhi, xp - 3, xp + 3, col);
      }
    }
    if (se.points) {  // scatter: dots only, shape from the style so series stay apart beyond the palette
      for (const auto& [x, y] : pts)
        body += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2.5\" fill=\"{}\" fill-opacity=\"0.55\"/>\n", x, y, col);
      legend.push_back({se.name, col, "1 6", 1, false});
      continue;
    }
    std::string p;
    for (const auto& [x, y] : pts) p += fmt::format("{:.1f},{:.1f} ", x, y);
    body += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\"{} points=\"{}\"/>\n", col, dash_attr(dash), p);
    body += err;
    if (marker != 0 && !pts.empty()) {
      const size_t every = std::max<size_t>(1, (pts.size() + kMaxMarkers - 1) / kMaxMarkers);
      for (size_t i = 0; i < pts.size(); i += every) body += marker_svg(marker, pts[i].first, pts[i].second, col);
    }
    legend.push_back({se.name, col, dash, marker, false});
  }
  return f.render(o, ya, xt, body, legend);
}

std::string stacked_bar_svg(const std::vector<std::string>& categories, const std::vector<BarStack>& stacks, const ChartOptions& o) {
  const size_t n = categories.size();
  std::vector<double> total(n, 0.0);
  for (const auto& st : stacks)
    for (size_t i = 0; i < n && i < st.values.size(); ++i)
      if (std::isfinite(st.values[i]) && st.values[i] > 0) total[i] += st.values[i];
  double top = o.y_min;
  for (double t : total) top = std::max(top, t);
  Axis ya = linear_axis(o.y_min, o.fixed_y_max ? o.y_max : top, !o.fixed_y_max);
  Frame f;
  double longest = 0;
  for (const auto& c : categories) longest = std::max(longest, text_w(c));
  const double slot = std::max(60.0, std::min(longest + 12, 120.0));
  f.plot_w = std::max(kPlotW, slot * static_cast<double>(n));
  const bool rotate = longest + 8 > f.plot_w / static_cast<double>(std::max<size_t>(1, n));
  if (rotate) f.bottom = kBottom + std::min(longest, 200.0) * 0.7;
  const double bw = f.plot_w / static_cast<double>(std::max<size_t>(1, n));
  auto py = [&](double v) { return kTop + f.plot_h - (std::clamp(v, ya.lo, ya.hi) - ya.lo) / (ya.hi - ya.lo) * f.plot_h; };

  std::string xt, body;
  for (size_t i = 0; i < n; ++i) {
    const double cx = f.left + bw * (static_cast<double>(i) + 0.5);
    if (rotate)
      xt += fmt::format(
          "<text class=\"xtick\" x=\"{0:.1f}\" y=\"{1:.1f}\" transform=\"rotate(-35 {0:.1f} {1:.1f})\" text-anchor=\"end\">{2}</text>\n",
          cx, kTop + f.plot_h + 14, esc(categories[i]));
    else
      xt += fmt::format("<text class=\"xtick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", cx, kTop + f.plot_h + 16,
                        esc(categories[i]));
    double base = 0;
    for (size_t k = 0; k < stacks.size(); ++k) {
      const double v = i < stacks[k].values.size() && std::isfinite(stacks[k].values[i]) ? stacks[k].values[i] : 0;
      if (v <= 0) continue;
      const double y0 = py(base), y1 = py(base + v);
      body += fmt::format(
          "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\" stroke=\"white\" stroke-width=\"0.5\"/>\n",
          cx - 0.35 * bw, y1, 0.7 * bw, y0 - y1, kColors[k % kNumColors]);
      base += v;
    }
  }
  std::vector<LegendEntry> legend;
  // Top segment first in the legend, as the bars read from the top.
  for (size_t k = stacks.size(); k-- > 0;) legend.push_back({stacks[k].name, kColors[k % kNumColors], "", 0, true});
  return f.render(o, ya, xt, body, legend);
}

}  // namespace mlsys
