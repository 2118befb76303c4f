#pragma once
// The SVG chart writer of the project (no dependency): line charts (linear or log axes, optional
// error bars), stacked and plain categorical bar charts, with nice-number ticks (1, 2, 5 x 10^k
// steps; whole-number steps on an axis whose data are whole numbers) and the legend below the plot.
// Pictures are made for papers: a FigureSize preset fixes the width (3.3 in column, 6.9 in page,
// or a 720 px screen draft) and the text size (8 pt, 9 pt, 12 px); long titles, labels and legend
// entries wrap, and the picture grows in height to hold them, so nothing is clipped. Each series
// takes its colour from its name (core/util/series_colors.inc, the table plot_run.py reads too), so
// a method keeps its colour across figures; series that share a colour, or that coincide with an
// earlier series, get a dash pattern and markers, and a coinciding one says so in the legend.
// Output is deterministic text, so plots are part of the byte-identical outputs.
#include <string>
#include <vector>

namespace mlsys {

enum class FigureSize { kColumn, kPage, kScreen };

// The presets by config name ("column", "page", "screen"), for a config key's choices.
const std::vector<std::pair<std::string, FigureSize>>& figure_sizes();
FigureSize figure_size_from_name(const std::string& name);  // throws std::invalid_argument naming the choices

struct ChartSeries {
  std::string name;
  std::vector<double> x, y;
  // Optional half-width of an error bar per point (e.g. the standard deviation over seeds); empty
  // for none. A point whose entry is missing or not positive gets no bar.
  std::vector<double> y_err = {};
  // A scatter series: every point a translucent dot, no connecting line (predicted vs true).
  bool points = false;
};

struct ChartOptions {  // y axis: from y_min to the data maximum (rounded up to a tick), or to y_max when fixed_y_max
  std::string title, x_label, y_label;
  FigureSize size = FigureSize::kColumn;
  bool log_x = false;
  bool log_y = false;  // y_min is ignored when not positive; points at or below zero are left out
  double y_min = 0;
  bool fixed_y_max = false;
  double y_max = 1;
  bool bar_values = false;  // bar charts: each bar's total written above it
};

std::string line_chart_svg(const std::vector<ChartSeries>& series, const ChartOptions& o);

// One stacked bar per category; each BarStack is one segment kind (one legend entry) with one
// value per category, stacked bottom-up in the given order. Filled bars in equal slots, each
// labelled with its category under the axis. Uses o's title, labels and y range (log axes do not
// apply to bars). A single stack is a plain bar chart and has no legend.
struct BarStack {
  std::string name;
  std::vector<double> values;  // per category; missing entries count as 0
};

std::string stacked_bar_svg(const std::vector<std::string>& categories, const std::vector<BarStack>& stacks,
                            const ChartOptions& o);

// Charts of this writer placed side by side in one picture (each keeps its own size; the picture
// is as tall as the tallest). Charts drawn for a side-by-side picture should use a size whose
// widths add up to the wanted one (two column-size panels make a page-wide figure).
std::string side_by_side_svg(const std::vector<std::string>& charts);
// Charts one above the other (a column-width figure of several panels).
std::string stacked_svg(const std::vector<std::string>& charts);

// The colour of a series name in the shared table, or "" for a name it does not list.
std::string table_color(const std::string& name);

// Axis ticks at consecutive multiples of a step of 1, 2 or 5 x 10^k, about `target` of them,
// covering [lo, hi]. Exposed for tests and for callers that round their own axis limits.
std::vector<double> nice_ticks(double lo, double hi, int target = 5, bool integer = false);

// The tick step nice_ticks uses for a range (1, 2 or 5 x 10^k; at least 1 when integer).
double nice_step(double range, int target = 5, bool integer = false);

}  // namespace mlsys
