#include "dataopt/eval/svg_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace mlsys::dataopt {

namespace {

std::string escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<') o += "&lt;";
    else if (c == '>') o += "&gt;";
    else if (c == '&') o += "&amp;";
    else o.push_back(c);
  }
  return o;
}

const char* kColors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

}  // namespace

std::string svg_line_chart(const std::string& title, const std::string& x_label, const std::string& y_label,
                           const std::vector<PlotSeries>& series) {
  const double W = 720, H = 440, L = 70, R = 200, T = 40, B = 60;
  double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
  for (const auto& s : series)
    for (size_t i = 0; i < s.x.size(); ++i) {
      const double sp = i < s.spread.size() ? s.spread[i] : 0;
      x0 = std::min(x0, s.x[i]), x1 = std::max(x1, s.x[i]);
      y0 = std::min(y0, s.y[i] - sp), y1 = std::max(y1, s.y[i] + sp);
    }
  if (x0 > x1) x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  if (x1 == x0) x1 = x0 + 1;
  const double pad = std::max(1e-9, (y1 - y0) * 0.08);
  y0 -= pad, y1 += pad;
  auto px = [&](double x) { return L + (x - x0) / (x1 - x0) * (W - L - R); };
  auto py = [&](double y) { return H - B - (y - y0) / (y1 - y0) * (H - T - B); };
  std::string o = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" font-family=\"sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"{}\" y=\"22\" font-size=\"15\">{}</text>\n",
      W, H, L, escape(title));
  o += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\n", L, H - B, W - R, H - B);
  o += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\n", L, T, L, H - B);
  for (int i = 0; i <= 5; ++i) {
    const double yv = y0 + (y1 - y0) * i / 5, xv = x0 + (x1 - x0) * i / 5;
    o += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#ddd\"/>"
                     "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{:.1f}</text>\n",
                     L, py(yv), W - R, py(yv), L - 6, py(yv) + 4, yv);
    o += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{:g}</text>\n", px(xv), H - B + 18,
                     std::round(xv * 10) / 10);
  }
  o += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", (L + W - R) / 2, H - 18, escape(x_label));
  o += fmt::format("<text x=\"16\" y=\"{:.1f}\" transform=\"rotate(-90 16 {:.1f})\" text-anchor=\"middle\">{}</text>\n",
                   (T + H - B) / 2, (T + H - B) / 2, escape(y_label));
  for (size_t k = 0; k < series.size(); ++k) {
    const auto& s = series[k];
    const char* c = kColors[k % (sizeof kColors / sizeof *kColors)];
    std::string pts;
    for (size_t i = 0; i < s.x.size(); ++i) {
      pts += fmt::format("{:.1f},{:.1f} ", px(s.x[i]), py(s.y[i]));
      if (i < s.spread.size() && s.spread[i] > 0)
        o += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"{3}\"/>\n", px(s.x[i]),
                         py(s.y[i] - s.spread[i]), py(s.y[i] + s.spread[i]), c);
      o += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\"/>\n", px(s.x[i]), py(s.y[i]), c);
    }
    o += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>\n", c, pts);
    o += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"3\"/>"
                     "<text x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n",
                     W - R + 12, T + 10 + 20.0 * static_cast<double>(k), W - R + 36, T + 10 + 20.0 * static_cast<double>(k), c,
                     W - R + 42, T + 14 + 20.0 * static_cast<double>(k), escape(s.name));
  }
  return o + "</svg>\n";
}

}  // namespace mlsys::dataopt
