#include "sched/schedmate/eval/scatter_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace mlsys::schedmate {

namespace {

const char* const kColours[] = {"#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02"};
const char* const kShapes[] = {"circle", "square", "diamond", "triangle"};

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '&') out += "&amp;";
    else out += c;
  }
  return out;
}

std::string tick_label(double v) {
  char buf[32];
  if (v >= 86400) std::snprintf(buf, sizeof buf, "%gd", v / 86400);
  else if (v >= 3600) std::snprintf(buf, sizeof buf, "%gh", v / 3600);
  else if (v >= 60) std::snprintf(buf, sizeof buf, "%gmin", v / 60);
  else std::snprintf(buf, sizeof buf, "%gs", v);
  return buf;
}

std::string marker(int shape, double x, double y, const char* colour) {
  const std::string style = std::string(" fill=\"") + colour + "\" fill-opacity=\"0.55\"/>\n";
  switch (shape % 4) {
    case 0: return "<circle cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"2.5\"" + style;
    case 1: return "<rect x=\"" + num(x - 2.2) + "\" y=\"" + num(y - 2.2) + "\" width=\"4.4\" height=\"4.4\"" + style;
    case 2:
      return "<polygon points=\"" + num(x) + "," + num(y - 3) + " " + num(x + 3) + "," + num(y) + " " + num(x) + "," +
             num(y + 3) + " " + num(x - 3) + "," + num(y) + "\"" + style;
    default:
      return "<polygon points=\"" + num(x) + "," + num(y - 3) + " " + num(x + 3) + "," + num(y + 2.5) + " " + num(x - 3) +
             "," + num(y + 2.5) + "\"" + style;
  }
}

}  // namespace

std::string scatter_svg(const std::vector<ScatterSeries>& series, const std::string& title, const std::string& x_label,
                        const std::string& y_label) {
  const double W = 640, H = 520, left = 70, right = 170, top = 40, bottom = 60;
  const double pw = W - left - right, ph = H - top - bottom;
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& s : series)
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i)
      if (s.x[i] > 0 && s.y[i] > 0) lo = std::min({lo, s.x[i], s.y[i]}), hi = std::max({hi, s.x[i], s.y[i]});
  if (!(lo < hi)) lo = 1, hi = 10;
  const double l0 = std::floor(std::log10(lo)), l1 = std::ceil(std::log10(hi));
  auto px = [&](double v) { return left + (std::log10(v) - l0) / (l1 - l0) * pw; };
  auto py = [&](double v) { return top + ph - (std::log10(v) - l0) / (l1 - l0) * ph; };
  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(W) + "\" height=\"" + num(H) +
                  "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += "<text x=\"" + num(left + pw / 2) + "\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">" + escape(title) + "</text>\n";
  // Axes and decade ticks.
  s += "<rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(pw) + "\" height=\"" + num(ph) +
       "\" fill=\"none\" stroke=\"#333\"/>\n";
  for (double e = l0; e <= l1; e += 1) {
    const double v = std::pow(10.0, e);
    s += "<line x1=\"" + num(px(v)) + "\" y1=\"" + num(top) + "\" x2=\"" + num(px(v)) + "\" y2=\"" + num(top + ph) +
         "\" stroke=\"#ddd\"/>\n";
    s += "<line x1=\"" + num(left) + "\" y1=\"" + num(py(v)) + "\" x2=\"" + num(left + pw) + "\" y2=\"" + num(py(v)) +
         "\" stroke=\"#ddd\"/>\n";
    s += "<text x=\"" + num(px(v)) + "\" y=\"" + num(top + ph + 16) + "\" text-anchor=\"middle\">" + tick_label(v) + "</text>\n";
    s += "<text x=\"" + num(left - 6) + "\" y=\"" + num(py(v) + 4) + "\" text-anchor=\"end\">" + tick_label(v) + "</text>\n";
  }
  s += "<text x=\"" + num(left + pw / 2) + "\" y=\"" + num(H - 18) + "\" text-anchor=\"middle\">" + escape(x_label) + "</text>\n";
  s += "<text transform=\"translate(18," + num(top + ph / 2) + ") rotate(-90)\" text-anchor=\"middle\">" + escape(y_label) +
       "</text>\n";
  // y = x and the +-50% band.
  const double a = std::pow(10.0, l0), b = std::pow(10.0, l1);
  s += "<line x1=\"" + num(px(a)) + "\" y1=\"" + num(py(a)) + "\" x2=\"" + num(px(b)) + "\" y2=\"" + num(py(b)) +
       "\" stroke=\"#000\" stroke-width=\"1\"/>\n";
  for (double f : {0.5, 1.5}) {
    const double x0 = f < 1 ? a / f : a, x1 = f < 1 ? b : b / f;
    s += "<line x1=\"" + num(px(x0)) + "\" y1=\"" + num(py(x0 * f)) + "\" x2=\"" + num(px(x1)) + "\" y2=\"" + num(py(x1 * f)) +
         "\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\n";
  }
  for (size_t k = 0; k < series.size(); ++k) {
    const char* colour = kColours[k % 6];
    const int shape = static_cast<int>(k % 4);
    for (size_t i = 0; i < series[k].x.size() && i < series[k].y.size(); ++i)
      if (series[k].x[i] > 0 && series[k].y[i] > 0) s += marker(shape, px(series[k].x[i]), py(series[k].y[i]), colour);
    // Legend outside the plot.
    const double ly = top + 14 + 20 * static_cast<double>(k);
    s += marker(shape, left + pw + 18, ly - 4, colour);
    s += "<text x=\"" + num(left + pw + 28) + "\" y=\"" + num(ly) + "\">" + escape(series[k].name) + "</text>\n";
  }
  const double ly = top + 14 + 20 * static_cast<double>(series.size());
  s += "<line x1=\"" + num(left + pw + 10) + "\" y1=\"" + num(ly - 4) + "\" x2=\"" + num(left + pw + 26) + "\" y2=\"" + num(ly - 4) +
       "\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\n<text x=\"" + num(left + pw + 28) + "\" y=\"" + num(ly) + "\">+-50%</text>\n";
  s += "</svg>\n";
  return s;
}

}  // namespace mlsys::schedmate
