#include "core/util/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

namespace mlsys {
namespace {

// The shared series colour table (one raw string literal; plot_run.py reads the same file).
const char* kSeriesColors =
#include "core/util/series_colors.inc"
    ;

struct ColorTable {
  std::vector<std::string> palette;
  std::map<std::string, std::string> by_name;
};

const ColorTable& color_table() {
  static const ColorTable t = [] {
    ColorTable c;
    std::istringstream in(kSeriesColors);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line.rfind("//", 0) == 0) continue;
      const size_t sp = line.find(' ');
      if (sp == std::string::npos) continue;
      if (line.rfind("palette ", 0) == 0) {
        std::istringstream cols(line.substr(sp + 1));
        for (std::string col; cols >> col;) c.palette.push_back(col);
      } else {
        c.by_name[line.substr(sp + 1)] = line.substr(0, sp);
      }
    }
    return c;
  }();
  return t;
}

// FNV-1a (64 bit) of a name: the palette slot of a name the table does not list. plot_run.py
// computes the same.
uint64_t fnv1a(const std::string& s) {
  uint64_t h = 14695981039346656037ULL;
  for (unsigned char ch : s) {
    h ^= ch;
    h *= 1099511628211ULL;
  }
  return h;
}

// One colour per series: listed names keep their table colour; the others take their hashed
// palette slot, or the next slot no series of this figure uses yet (so a few unknown names do not
// share a colour by chance), in series order, so every figure of one run colours a name alike.
std::vector<std::string> series_colors(const std::vector<std::string>& names) {
  const ColorTable& t = color_table();
  std::vector<std::string> out(names.size());
  std::vector<bool> used(t.palette.size(), false);
  auto mark = [&](const std::string& col) {
    for (size_t k = 0; k < t.palette.size(); ++k)
      if (t.palette[k] == col) used[k] = true;
  };
  for (size_t i = 0; i < names.size(); ++i) {
    auto it = t.by_name.find(names[i]);
    if (it != t.by_name.end()) {
      out[i] = it->second;
      mark(out[i]);
    }
  }
  for (size_t i = 0; i < names.size(); ++i) {
    if (!out[i].empty()) continue;
    const size_t n = t.palette.size(), start = fnv1a(names[i]) % n;
    size_t k = start;
    for (size_t step = 0; step < n && used[(start + step) % n] == true; ++step) k = (start + step + 1) % n;
    out[i] = t.palette[k];
    used[k] = true;
  }
  return out;
}

// Figure presets: width in user units, user units per inch (0: pixels, no physical size), text
// size, plot height over plot width.
struct Geometry {
  const char* name;
  FigureSize size;
  double width, per_inch, font, aspect;
};
constexpr Geometry kGeometries[] = {
    {"column", FigureSize::kColumn, 3.3 * 72, 72, 8, 0.62},
    {"page", FigureSize::kPage, 6.9 * 72, 72, 9, 0.38},
    {"screen", FigureSize::kScreen, 720, 0, 12, 0.6},
};

const Geometry& geometry(FigureSize s) {
  for (const auto& g : kGeometries)
    if (g.size == s) return g;
  return kGeometries[0];
}

// Text widths are estimated from the character count (no font metrics): 0.6 em per character
// is wider than the average sans-serif glyph, so the estimate errs towards room to spare.
constexpr double kEm = 0.6, kLine = 1.25;
constexpr double kPointsPerUnit = 2;  // polylines are thinned to about 2 points per unit of plot width
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

double text_w(const std::string& s, double font) { return kEm * font * static_cast<double>(s.size()); }

// Greedy word wrap to lines no wider than max_w; a word longer than a line is cut.
std::vector<std::string> wrap(const std::string& text, double max_w, double font) {
  const size_t max_chars = std::max<size_t>(4, static_cast<size_t>(max_w / (kEm * font)));
  std::vector<std::string> lines;
  if (text.empty()) return lines;
  std::istringstream in(text);
  std::string line;
  for (std::string word; in >> word;) {
    while (word.size() > max_chars) {
      if (!line.empty()) lines.push_back(line), line.clear();
      lines.push_back(word.substr(0, max_chars));
      word = word.substr(max_chars);
    }
    if (line.empty()) line = word;
    else if (line.size() + 1 + word.size() <= max_chars) line += " " + word;
    else lines.push_back(line), line = word;
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

// Lines of text, the first baseline at y, one line height apart.
std::string text_lines(const std::vector<std::string>& lines, double x, double y, double font, const std::string& attrs) {
  std::string s;
  for (size_t k = 0; k < lines.size(); ++k)
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\"{}>{}</text>\n", x, y + kLine * font * static_cast<double>(k), attrs,
                     esc(lines[k]));
  return s;
}

// 2.5e-5, 1e6: mantissa without trailing zeros, exponent without "+" or leading zeros.
std::string exp_label(double v) {
  std::string g = fmt::format("{:.3e}", v);
  const size_t e = g.find('e');
  std::string mant = g.substr(0, e), ex = g.substr(e + 1);
  if (mant.find('.') != std::string::npos) {
    mant.erase(mant.find_last_not_of('0') + 1);
    if (mant.back() == '.') mant.pop_back();
  }
  const bool neg = ex[0] == '-';
  ex = ex.substr(ex[0] == '-' || ex[0] == '+' ? 1 : 0);
  ex = ex.substr(std::min(ex.find_first_not_of('0'), ex.size() - 1));
  return mant + "e" + (neg ? "-" : "") + ex;
}

// An axis's tick labels: fixed-point with as many decimals as the step needs, or all in exponent
// form when any value's magnitude is very large or very small (never 100000 beside 1e6).
// On a log axis (step 0) each plain label has the decimals its own magnitude needs (0.1, 1, 10).
std::vector<std::string> tick_labels(const std::vector<double>& values, double step) {
  bool exp = false;
  for (double v : values) exp = exp || (v != 0 && (std::fabs(v) >= 1e6 || std::fabs(v) < 1e-3));
  auto decimals = [](double s) { return std::max(0, -static_cast<int>(std::floor(std::log10(s) + 1e-9))); };
  std::vector<std::string> out;
  for (double v : values)
    out.push_back(v == 0 ? "0" : exp ? exp_label(v) : fmt::format("{:.{}f}", v, decimals(step > 0 ? step : std::fabs(v))));
  return out;
}

struct Axis {
  bool log = false;
  double lo = 0, hi = 1;            // in plot units (log10 of the value for a log axis)
  std::vector<double> ticks;        // in plot units
  std::vector<std::string> labels;  // values as shown
};

// Linear axis over [lo, hi]; when round_hi, hi grows to the next tick.
Axis linear_axis(double lo, double hi, bool round_hi, int target, bool integer) {
  Axis a;
  if (!(hi > lo)) hi = lo + 1;
  double step = nice_step(hi - lo, target, integer);
  if (round_hi) {
    hi = std::ceil(hi / step - 1e-9) * step;
    step = nice_step(hi - lo, target, integer);
  }
  a.lo = lo;
  a.hi = hi;
  a.ticks = nice_ticks(lo, hi, target, integer);
  a.labels = tick_labels(a.ticks, step);
  return a;
}

// Log axis over the positive values [lo, hi], widened to whole decades when it spans more than one.
// Ticks at decades (every d-th when there are more than `target` + 3), else at 1, 2, 5 x 10^k,
// else linear ticks.
Axis log_axis(double lo, double hi, int target) {
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
    const int every = (decades + target + 2) / (target + 3);
    for (int d = d0; d <= d1; ++d)
      if ((d - d0) % every == 0) a.ticks.push_back(d);
  } else {
    for (int d = d0 - 1; d <= d1; ++d)
      for (double m : {1.0, 2.0, 5.0}) {
        const double t = std::log10(m) + d;
        if (t >= l0 - 1e-9 && t <= l1 + 1e-9) a.ticks.push_back(t);
      }
  }
  std::vector<double> values;
  if (a.ticks.size() >= 2) {
    for (double t : a.ticks) values.push_back(std::pow(10.0, t));
    a.labels = tick_labels(values, 0);
    return a;
  }
  a.ticks.clear();
  const double v0 = std::pow(10.0, l0), v1 = std::pow(10.0, l1), step = nice_step(v1 - v0, target);
  for (double v : nice_ticks(v0, v1, target)) {
    if (v <= 0) continue;
    a.ticks.push_back(std::log10(v));
    values.push_back(v);
  }
  a.labels = tick_labels(values, step);
  return a;
}

// Where a value lands on an axis (plot units), or NaN when a log axis cannot show it.
double to_axis(const Axis& a, double v) {
  if (!std::isfinite(v)) return NAN;
  if (!a.log) return v;
  return v > 0 ? std::log10(v) : NAN;
}

double widest(const std::vector<std::string>& labels, double font) {
  double w = 0;
  for (const auto& l : labels) w = std::max(w, text_w(l, font));
  return w;
}

struct LegendEntry {
  std::string name, color;
  int style = 0;        // dash pattern and marker (0: solid, no marker)
  bool swatch = false;  // a filled box (bar charts) instead of a line
  bool dot = false;     // a scatter series: one dot
};

// Style k > 0: a dash pattern (in line widths) and a marker, so lines of one colour stay apart.
const char* kDashes[] = {"", "4,2", "1,1.5", "5,1.5,1,1.5"};
constexpr size_t kNumStyles = sizeof(kDashes) / sizeof(kDashes[0]);

std::string dash_attr(int style, double lw) {
  if (style == 0) return "";
  std::string out;
  // Styles beyond the last dash pattern cycle through the dashed ones (never back to solid).
  std::istringstream in(kDashes[1 + (static_cast<size_t>(style) - 1) % (kNumStyles - 1)]);
  for (std::string part; std::getline(in, part, ',');)
    out += (out.empty() ? "" : ",") + fmt::format("{:.1f}", std::stod(part) * lw);
  return fmt::format(" stroke-dasharray=\"{}\"", out);
}

std::string marker_svg(int style, double x, double y, const std::string& col, double r, double lw) {
  switch (style % 3) {
    case 1:
      return fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.2f}\" fill=\"white\" stroke=\"{}\" stroke-width=\"{:.2f}\"/>\n", x,
                         y, r, col, lw);
    case 2:
      return fmt::format(
          "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.2f}\" height=\"{:.2f}\" fill=\"white\" stroke=\"{}\" stroke-width=\"{:.2f}\"/>\n",
          x - r, y - r, 2 * r, 2 * r, col, lw);
    default:
      if (style == 0) return "";
      return fmt::format("<path d=\"M{:.1f},{:.1f} L{:.1f},{:.1f} L{:.1f},{:.1f} Z\" fill=\"white\" stroke=\"{}\" stroke-width=\"{:.2f}\"/>\n",
                         x, y - 1.15 * r, x + 1.15 * r, y + r, x - 1.15 * r, y + r, col, lw);
  }
}

// The layout every chart shares: picture width and text size from the preset; from the top the
// title, the plot area (y tick labels and the y label left of it), the x tick labels, the x label
// and the legend (as many columns as fit). Long texts wrap; the height follows the content.
struct Frame {
  const Geometry& g;
  double f, pad, lw;
  double W = 0, H = 0, left = 0, top = 0, plot_w = 0, plot_h = 0;
  std::vector<std::string> title, ylabel, xlabel;
  double xticks_h = 0;  // room under the plot for the x tick labels
  double legend_y = 0, legend_h = 0, entry_w = 0;
  size_t legend_cols = 1;
  std::vector<std::vector<std::string>> entry_lines;

  explicit Frame(const ChartOptions& o) : g(geometry(o.size)), f(g.font), pad(0.5 * g.font), lw(0.13 * g.font), W(g.width) {}

  // The plot width left after a y tick label column of width ytw (before the y label is known).
  double plot_w_for(double ytw, size_t ylabel_lines, double right) const {
    return W - pad - kLine * f * static_cast<double>(ylabel_lines) - 0.4 * f - ytw - std::max(right, pad);
  }

  // ytw: widest y tick label; right: how far the last x tick label reaches past the plot's right
  // edge; xticks_h: room under the plot for the x tick labels.
  void place(const ChartOptions& o, double ytw, double right, double xtick_room, const std::vector<LegendEntry>& legend) {
    title = wrap(o.title, W - 2 * pad, f);
    top = pad + (title.empty() ? 0 : kLine * f * static_cast<double>(title.size())) + 0.6 * f;
    const double h0 = plot_w_for(ytw, 1, right) * g.aspect;
    const std::string yl = o.y_label + (o.log_y ? " (log scale)" : "");
    ylabel = wrap(yl, 0.95 * h0, f);
    left = W - plot_w_for(ytw, ylabel.size(), right) - std::max(right, pad);
    plot_w = plot_w_for(ytw, ylabel.size(), right);
    plot_h = std::max(h0, text_w(ylabel.empty() ? "" : ylabel.front(), f) / 0.95);
    for (const auto& l : ylabel) plot_h = std::max(plot_h, text_w(l, f) / 0.95);
    xticks_h = xtick_room;
    const std::string xl = o.x_label + (o.log_x ? " (log scale)" : "");
    xlabel = wrap(xl, plot_w, f);  // centred under the plot
    double y = top + plot_h + xticks_h + kLine * f * static_cast<double>(xlabel.size());
    // Legend: entries of a key (2.2 em) and the name, as many columns as fit in the width.
    const double key = 2.2 * f, avail = W - 2 * pad;
    double natural = 0;
    for (const auto& e : legend) natural = std::max(natural, key + 0.4 * f + text_w(e.name, f) + f);
    legend_cols = legend.empty() ? 1 : std::clamp<size_t>(static_cast<size_t>(avail / std::max(natural, 1.0)), 1, legend.size());
    entry_w = avail / static_cast<double>(legend_cols);
    entry_lines.clear();
    for (const auto& e : legend) entry_lines.push_back(wrap(e.name, entry_w - key - 0.4 * f - 0.5 * f, f));
    legend_y = y + (legend.empty() ? 0 : 0.4 * f);
    legend_h = 0;
    for (size_t r = 0; r * legend_cols < legend.size(); ++r) {
      size_t lines = 1;
      for (size_t c = 0; c < legend_cols && r * legend_cols + c < legend.size(); ++c)
        lines = std::max(lines, entry_lines[r * legend_cols + c].size());
      legend_h += kLine * f * static_cast<double>(lines);
    }
    H = legend_y + legend_h + pad;
  }

  double py(const Axis& y, double v) const { return top + plot_h - (std::clamp(v, y.lo, y.hi) - y.lo) / (y.hi - y.lo) * plot_h; }

  std::string render(const Axis& y, const std::string& x_ticks_svg, const std::string& body,
                     const std::vector<LegendEntry>& legend) const {
    const std::string w_attr = g.per_inch > 0 ? fmt::format("{:.3g}in", W / g.per_inch) : fmt::format("{:.0f}", W);
    const std::string h_attr = g.per_inch > 0 ? fmt::format("{:.3f}in", H / g.per_inch) : fmt::format("{:.0f}", H);
    std::string s = fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {:.1f} {:.1f}\" font-family=\"sans-serif\" "
        "font-size=\"{}\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
        w_attr, h_attr, W, H, f);
    s += text_lines(title, pad, pad + f, f, " font-weight=\"bold\"");
    for (size_t k = 0; k < y.ticks.size(); ++k) {
      const double p = py(y, y.ticks[k]);
      s += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#e5e5e5\" stroke-width=\"{:.2f}\"/>\n", left,
                       p, left + plot_w, p, 0.5 * lw);
      s += fmt::format("<text class=\"ytick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n", left - 0.4 * f, p + 0.35 * f,
                       y.labels[k]);
    }
    s += x_ticks_svg;
    s += body;
    s += fmt::format("<rect class=\"plot\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"none\" stroke=\"#444\" "
                     "stroke-width=\"{:.2f}\"/>\n",
                     left, top, plot_w, plot_h, 0.6 * lw);
    s += text_lines(xlabel, left + plot_w / 2, top + plot_h + xticks_h + f, f, " text-anchor=\"middle\"");
    // The y label: rotated lines left of the tick labels, the last line nearest the axis.
    const double cy = top + plot_h / 2;
    for (size_t k = 0; k < ylabel.size(); ++k) {
      const double x = pad + f + kLine * f * static_cast<double>(k) - 0.2 * f;
      s += fmt::format("<text x=\"{0:.1f}\" y=\"{1:.1f}\" transform=\"rotate(-90 {0:.1f} {1:.1f})\" text-anchor=\"middle\">{2}</text>\n",
                       x, cy, esc(ylabel[k]));
    }
    if (!legend.empty()) {
      s += fmt::format("<g class=\"legend\">\n");
      double ry = legend_y;
      for (size_t r = 0; r * legend_cols < legend.size(); ++r) {
        size_t lines = 1;
        for (size_t c = 0; c < legend_cols && r * legend_cols + c < legend.size(); ++c) {
          const size_t k = r * legend_cols + c;
          const auto& e = legend[k];
          lines = std::max(lines, entry_lines[k].size());
          const double ex = pad + entry_w * static_cast<double>(c), ey = ry + 0.6 * f;
          if (e.swatch)
            s += fmt::format("<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\"/>\n", ex, ey - 0.4 * f,
                             2.2 * f, 0.8 * f, e.color);
          else if (e.dot)
            s += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.2f}\" fill=\"{}\"/>\n", ex + 1.1 * f, ey,
                             0.3 * f, e.color);
          else {
            s += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"{:.2f}\"{}/>\n", ex,
                             ey, ex + 2.2 * f, ey, e.color, 1.3 * lw, dash_attr(e.style, lw));
            s += marker_svg(e.style, ex + 1.1 * f, ey, e.color, 0.3 * f, 0.8 * lw);
          }
          s += text_lines(entry_lines[k], ex + 2.6 * f, ey + 0.35 * f, f, "");
        }
        ry += kLine * f * static_cast<double>(lines);
      }
      s += "</g>\n";
    }
    s += "</svg>\n";
    return s;
  }
};

// Tick targets by preset: fewer at column width, where labels are relatively wider.
int tick_target(const ChartOptions& o) { return o.size == FigureSize::kColumn ? 4 : 6; }

bool all_whole(const std::vector<ChartSeries>& series, bool x) {
  bool any = false;
  for (const auto& s : series) {
    const auto& v = x ? s.x : s.y;
    if (!x && !s.y_err.empty()) return false;
    for (double d : v) {
      if (!std::isfinite(d)) continue;
      if (d != std::round(d)) return false;
      any = true;
    }
  }
  return any;
}

// The numbers of an <svg> opening tag: viewBox width and height, and the unit of width="...".
struct SvgBox {
  double w = 0, h = 0;
  std::string unit;
  double per_unit = 1;  // user units per unit of the width attribute
};

SvgBox svg_box(const std::string& svg) {
  SvgBox b;
  const size_t v = svg.find("viewBox=\"0 0 ");
  if (v == std::string::npos) return b;
  char* end = nullptr;
  b.w = std::strtod(svg.c_str() + v + 13, &end);
  b.h = std::strtod(end, nullptr);
  const size_t wa = svg.find(" width=\"");
  if (wa != std::string::npos && svg.compare(svg.find('"', wa + 8) - 2, 2, "in") == 0) {
    b.unit = "in";
    b.per_unit = 72;
  }
  return b;
}

// Charts nested in one picture, across (side by side) or down (one above the other).
std::string combine_svg(const std::vector<std::string>& charts, bool across) {
  double w = 0, h = 0;
  SvgBox unit;
  std::string inner;
  for (const auto& c : charts) {
    if (c.rfind("<svg ", 0) != 0) continue;
    const SvgBox b = svg_box(c);
    unit = b;
    const size_t vb = c.find(" viewBox=");
    inner += fmt::format("<svg x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\"", across ? w : 0, across ? 0 : h, b.w, b.h) +
             c.substr(vb);
    if (across) w += b.w, h = std::max(h, b.h);
    else w = std::max(w, b.w), h += b.h;
  }
  auto dim = [&](double v) { return unit.unit.empty() ? fmt::format("{:.0f}", v) : fmt::format("{:.3f}in", v / unit.per_unit); };
  return fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {:.1f} {:.1f}\">\n", dim(w),
                     dim(h), w, h) +
         inner + "</svg>\n";
}

}  // namespace

const std::vector<std::pair<std::string, FigureSize>>& figure_sizes() {
  static const std::vector<std::pair<std::string, FigureSize>> v = [] {
    std::vector<std::pair<std::string, FigureSize>> out;
    for (const auto& g : kGeometries) out.emplace_back(g.name, g.size);
    return out;
  }();
  return v;
}

FigureSize figure_size_from_name(const std::string& name) {
  std::string names;
  for (const auto& [n, s] : figure_sizes()) {
    if (n == name) return s;
    names += (names.empty() ? "" : ", ") + n;
  }
  throw std::invalid_argument("unknown figure size '" + name + "' (choose one of " + names + ")");
}

std::string table_color(const std::string& name) {
  auto it = color_table().by_name.find(name);
  return it == color_table().by_name.end() ? std::string() : it->second;
}

double nice_step(double range, int target, bool integer) {
  if (!(range > 0) || !std::isfinite(range)) return 1;
  const double raw = range / std::max(1, target);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double fr = raw / mag;
  const double step = (fr < 1.5 ? 1 : fr < 3 ? 2 : fr < 7 ? 5 : 10) * mag;
  return integer ? std::max(1.0, step) : step;
}

std::vector<double> nice_ticks(double lo, double hi, int target, bool integer) {
  std::vector<double> out;
  if (!std::isfinite(lo) || !std::isfinite(hi)) return out;
  if (hi < lo) std::swap(lo, hi);
  if (hi == lo) return {lo};
  const double step = nice_step(hi - lo, target, integer);
  const double eps = 1e-9 * step;
  for (auto k = static_cast<int64_t>(std::ceil((lo - eps) / step)); static_cast<double>(k) * step <= hi + eps; ++k) {
    const double t = static_cast<double>(k) * step;
    out.push_back(t == 0 ? 0.0 : t);  // no "-0"
  }
  return out;
}

std::string side_by_side_svg(const std::vector<std::string>& charts) { return combine_svg(charts, true); }

std::string stacked_svg(const std::vector<std::string>& charts) { return combine_svg(charts, false); }

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
  const bool int_x = !o.log_x && all_whole(series, true), int_y = !o.log_y && all_whole(series, false);
  Frame fr(o);
  const double f = fr.f;
  // The x axis: fewer ticks until their labels fit side by side.
  Axis xa;
  for (int target = tick_target(o); target >= 2; --target) {
    xa = o.log_x ? log_axis(empty ? 1 : xmin, empty ? 10 : xmax, target)
                 : linear_axis(empty ? 0 : xmin, empty ? 1 : xmax, false, target, int_x);
    const double room = fr.plot_w_for(4 * kEm * f, 1, 0) / static_cast<double>(std::max<size_t>(1, xa.ticks.size()));
    if (widest(xa.labels, f) + 0.8 * f <= room) break;
  }
  Axis ya;
  const int yt = tick_target(o);
  if (o.log_y) {
    const double lo = o.y_min > 0 ? o.y_min : (empty ? 1 : ymin);
    const double hi = o.fixed_y_max ? o.y_max : (empty ? 10 : ymax);
    ya = log_axis(lo, std::max(hi, lo), yt);
  } else {
    const double hi = o.fixed_y_max ? o.y_max : (empty ? o.y_min + 1 : ymax);
    ya = linear_axis(o.y_min, hi, !o.fixed_y_max, yt, int_y);
  }
  // Colours by name; a series sharing its colour with an earlier one, or drawn exactly over an
  // earlier one, gets the next style (dash and markers).
  std::vector<std::string> names;
  for (const auto& s : series) names.push_back(s.name);
  const std::vector<std::string> colors = series_colors(names);
  std::vector<LegendEntry> legend;
  for (size_t k = 0; k < series.size(); ++k) legend.push_back({series[k].name, colors[k], 0, false, series[k].points});

  // Lay out once for the positions (the legend names may still grow by a coincidence note below,
  // which wraps within the same width and only moves the legend's own height).
  const double right = xa.labels.empty() ? 0 : text_w(xa.labels.back(), f) / 2;
  fr.place(o, widest(ya.labels, f), right, kLine * f, legend);
  auto px = [&](double v) { return fr.left + (v - xa.lo) / (xa.hi - xa.lo) * fr.plot_w; };

  std::vector<std::string> point_text(series.size());
  std::vector<std::vector<std::pair<double, double>>> pixels(series.size());
  std::vector<std::string> errs(series.size());
  for (size_t k = 0; k < series.size(); ++k) {
    const auto& se = series[k];
    const size_t n = std::min(se.x.size(), se.y.size());
    const size_t step = std::max<size_t>(1, n / static_cast<size_t>(kPointsPerUnit * fr.plot_w));
    const size_t err_step = std::max<size_t>(1, n / kMaxErrorBars);
    for (size_t i = 0; i < n; ++i) {
      const double x = to_axis(xa, se.x[i]), y = to_axis(ya, se.y[i]);
      if (std::isnan(x) || std::isnan(y)) continue;
      if (i % step == 0) pixels[k].emplace_back(px(x), fr.py(ya, y));
      if (i % err_step == 0 && i < se.y_err.size() && se.y_err[i] > 0) {
        const double lo = to_axis(ya, se.y[i] - se.y_err[i]), hi = to_axis(ya, se.y[i] + se.y_err[i]);
        const double ylo = std::isnan(lo) ? fr.top + fr.plot_h : fr.py(ya, lo), yhi = fr.py(ya, hi), xp = px(x);
        errs[k] += fmt::format(
            "<path d=\"M{0:.1f},{1:.1f} V{2:.1f} M{3:.1f},{1:.1f} H{4:.1f} M{3:.1f},{2:.1f} H{4:.1f}\" stroke=\"{5}\" "
            "stroke-width=\"{6:.2f}\"/>\n",
            xp, ylo, yhi, xp - 0.3 * f, xp + 0.3 * f, colors[k], 0.7 * fr.lw);
      }
    }
    for (const auto& [x, y] : pixels[k]) point_text[k] += fmt::format("{:.1f},{:.1f} ", x, y);
  }
  for (size_t k = 0; k < series.size(); ++k) {
    size_t same_color = 0;
    for (size_t j = 0; j < k; ++j) same_color += colors[j] == colors[k] ? 1 : 0;
    legend[k].style = static_cast<int>(same_color);
    for (size_t j = 0; j < k; ++j)
      if (!series[k].points && !series[j].points && !pixels[k].empty() && point_text[j] == point_text[k]) {
        legend[k].style = std::max(legend[k].style, 1 + legend[j].style);
        legend[k].name += " (same as " + series[j].name + ")";
        break;
      }
  }
  fr.place(o, widest(ya.labels, f), right, kLine * f, legend);  // the notes may add legend lines; positions above stay

  std::string xt;
  for (size_t k = 0; k < xa.ticks.size(); ++k) {
    const double p = px(xa.ticks[k]);
    xt += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#e5e5e5\" stroke-width=\"{3:.2f}\"/>\n",
                      p, fr.top, fr.top + fr.plot_h, 0.5 * fr.lw);
    xt += fmt::format("<text class=\"xtick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", p, fr.top + fr.plot_h + f,
                      xa.labels[k]);
  }
  std::string body;
  for (size_t k = 0; k < series.size(); ++k) {
    const std::string& col = colors[k];
    const int style = legend[k].style;
    if (series[k].points) {  // scatter: dots only
      for (const auto& [x, y] : pixels[k])
        body += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.2f}\" fill=\"{}\" fill-opacity=\"0.55\"/>\n", x, y, 0.22 * f, col);
      continue;
    }
    body += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"{:.2f}\"{} points=\"{}\"/>\n", col, fr.lw,
                        dash_attr(style, fr.lw), point_text[k]);
    body += errs[k];
    if (style != 0 && !pixels[k].empty()) {
      const size_t every = std::max<size_t>(1, (pixels[k].size() + kMaxMarkers - 1) / kMaxMarkers);
      for (size_t i = 0; i < pixels[k].size(); i += every)
        body += marker_svg(style, pixels[k][i].first, pixels[k][i].second, col, 0.3 * f, 0.8 * fr.lw);
    }
  }
  return fr.render(ya, xt, body, legend);
}

std::string stacked_bar_svg(const std::vector<std::string>& categories, const std::vector<BarStack>& stacks, const ChartOptions& o) {
  const size_t n = categories.size();
  std::vector<double> total(n, 0.0);
  for (const auto& st : stacks)
    for (size_t i = 0; i < n && i < st.values.size(); ++i)
      if (std::isfinite(st.values[i]) && st.values[i] > 0) total[i] += st.values[i];
  double top = o.y_min;
  for (double t : total) top = std::max(top, t);
  Frame fr(o);
  const double f = fr.f;
  // Whole-number bar totals (job counts) get whole-number ticks.
  bool whole = true;
  for (double t : total) whole = whole && t == std::round(t);
  std::vector<std::string> values;
  for (double t : total) values.push_back(t == std::round(t) || t >= 100 ? fmt::format("{:.0f}", t) : fmt::format("{:.3g}", t));
  // Category labels: horizontal when they fit their slot, else turned to read upwards. Totals
  // above the bars: horizontal when they fit the bar, else upwards too; the y axis leaves room.
  const double plot_w_est = fr.plot_w_for(6 * kEm * f, 1, 0), h_est = plot_w_est * fr.g.aspect;
  const double slot_est = plot_w_est / static_cast<double>(std::max<size_t>(1, n));
  const double longest = widest(categories, f);
  const bool turn = longest + 0.6 * f > slot_est;
  const bool values_fit = widest(values, f) <= 0.9 * slot_est;
  const double head_len = values_fit ? 1.3 * f : widest(values, f) + 0.6 * f;
  const double head = o.bar_values ? std::min(0.6, head_len / h_est) : 0;
  Axis ya = linear_axis(o.y_min, o.fixed_y_max ? o.y_max : o.y_min + (top - o.y_min) / (1 - head), !o.fixed_y_max, tick_target(o), whole);

  std::vector<LegendEntry> legend;
  const std::vector<std::string> colors = [&] {
    std::vector<std::string> names;
    for (const auto& st : stacks) names.push_back(st.name);
    return series_colors(names);
  }();
  // Top segment first in the legend, as the bars read from the top; one stack needs no legend.
  if (stacks.size() > 1)
    for (size_t k = stacks.size(); k-- > 0;) legend.push_back({stacks[k].name, colors[k], 0, true, false});
  fr.place(o, widest(ya.labels, f), 0, turn ? longest + 0.8 * f : kLine * f, legend);
  const double bw = fr.plot_w / static_cast<double>(std::max<size_t>(1, n));

  std::string xt, body;
  for (size_t i = 0; i < n; ++i) {
    const double cx = fr.left + bw * (static_cast<double>(i) + 0.5), base_y = fr.top + fr.plot_h;
    if (turn)
      xt += fmt::format(
          "<text class=\"xtick\" x=\"{0:.1f}\" y=\"{1:.1f}\" transform=\"rotate(-90 {0:.1f} {1:.1f})\" text-anchor=\"end\">{2}</text>\n",
          cx + 0.35 * f, base_y + 0.4 * f, esc(categories[i]));
    else
      xt += fmt::format("<text class=\"xtick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", cx, base_y + f,
                        esc(categories[i]));
    double base = 0;
    for (size_t k = 0; k < stacks.size(); ++k) {
      const double v = i < stacks[k].values.size() && std::isfinite(stacks[k].values[i]) ? stacks[k].values[i] : 0;
      if (v <= 0) continue;
      const double y0 = fr.py(ya, base), y1 = fr.py(ya, base + v);
      body += fmt::format(
          "<rect class=\"bar\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"{}\" stroke=\"white\" "
          "stroke-width=\"{:.2f}\"/>\n",
          cx - 0.35 * bw, y1, 0.7 * bw, y0 - y1, colors[k], 0.4 * fr.lw);
      base += v;
    }
    if (o.bar_values) {
      const double y = fr.py(ya, total[i]) - 0.3 * f;
      if (values_fit)
        body += fmt::format("<text class=\"value\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n", cx, y, values[i]);
      else  // narrow bars: the total reads upwards from the bar's top
        body += fmt::format(
            "<text class=\"value\" x=\"{0:.1f}\" y=\"{1:.1f}\" transform=\"rotate(-90 {0:.1f} {1:.1f})\">{2}</text>\n", cx + 0.3 * f, y,
            values[i]);
    }
  }
  return fr.render(ya, xt, body, legend);
}

}  // namespace mlsys
