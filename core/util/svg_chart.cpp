#include "core/util/svg_chart.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace mlsys {
namespace {

const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

std::string esc(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else o += c;
  }
  return o;
}

std::string tick(double v) {
  double a = std::fabs(v);
  if (a >= 1e6 || (a > 0 && a < 1e-2)) return fmt::format("{:.0e}", v);
  if (a >= 100 || v == std::floor(v)) return fmt::format("{:.0f}", v);
  return fmt::format("{:.2g}", v);
}

}  // namespace

std::string line_chart_svg(const std::vector<ChartSeries>& series, const ChartOptions& o) {
  const double W = 760, H = 440, L = 70, R = 200, T = 40, B = 50;
  const double pw = W - L - R, ph = H - T - B;
  double x0 = 1e300, x1 = -1e300, y0 = o.y_min, y1 = o.fixed_y_max ? o.y_max : -1e300;
  for (const auto& s : series)
    for (size_t i = 0; i < s.x.size(); ++i) {
      double x = s.x[i];
      if (o.log_x) {
        if (x <= 0) continue;
        x = std::log10(x);
      }
      x0 = std::min(x0, x);
      x1 = std::max(x1, x);
      if (!o.fixed_y_max) y1 = std::max(y1, s.y[i]);
    }
  if (x0 > x1) x0 = 0, x1 = 1;
  if (x1 == x0) x1 = x0 + 1;
  if (!(y1 > y0)) y1 = y0 + 1;
  auto px = [&](double x) { return L + (x - x0) / (x1 - x0) * pw; };
  auto py = [&](double y) { return T + ph - (y - y0) / (y1 - y0) * ph; };
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"{}\" y=\"22\" font-size=\"15\">{}</text>\n",
      W, H, L, esc(o.title));
  s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#444\"/>\n", L, T, pw, ph);
  for (int k = 0; k <= 5; ++k) {
    double xv = x0 + (x1 - x0) * k / 5, yv = y0 + (y1 - y0) * k / 5;
    double shown = o.log_x ? std::pow(10.0, xv) : xv;
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", px(xv), T + ph + 16, tick(shown));
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", L - 6, py(yv) + 4, tick(yv));
    s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#eee\"/>\n", px(xv), T, T + ph);
  }
  s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", L + pw / 2, H - 12,
                   esc(o.x_label + (o.log_x ? " (log scale)" : "")));
  s += fmt::format("<text x=\"16\" y=\"{:.1f}\" transform=\"rotate(-90 16 {:.1f})\" text-anchor=\"middle\">{}</text>\n",
                   T + ph / 2, T + ph / 2, esc(o.y_label));
  for (size_t k = 0; k < series.size(); ++k) {
    const auto& se = series[k];
    const char* col = kColors[k % 10];
    std::string pts;
    // Thin long series to at most ~2000 points so files stay small.
    size_t step = std::max<size_t>(1, se.x.size() / 2000);
    for (size_t i = 0; i < se.x.size(); i += step) {
      double x = se.x[i];
      if (o.log_x) {
        if (x <= 0) continue;
        x = std::log10(x);
      }
      pts += fmt::format("{:.1f},{:.1f} ", px(x), py(std::clamp(se.y[i], y0, y1)));
    }
    s += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"1.5\" points=\"{}\"/>\n", col, pts);
    double ly = T + 14 + 18.0 * static_cast<double>(k);
    s += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"3\"/>\n", L + pw + 10, ly,
                     L + pw + 30, ly, col);
    s += fmt::format("<text x=\"{}\" y=\"{:.1f}\">{}</text>\n", L + pw + 36, ly + 4, esc(se.name));
  }
  s += "</svg>\n";
  return s;
}

}  // namespace mlsys
