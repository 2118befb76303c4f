#pragma once
// The SVG chart writer of the project (no dependency): line charts (linear or log axes, optional
// error bars) and stacked bar charts, with nice-number ticks (1, 2, 5 x 10^k steps) and a legend
// placed right of the plot area (the picture grows to hold it, so it is never clipped). Series
// beyond the 10-colour palette cycle dash patterns and markers, so no two of the first 40 series
// look alike. Output is deterministic text, so plots are part of the byte-identical outputs.
#include <string>
#include <vector>

namespace mlsys {

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
  bool log_x = false;
  bool log_y = false;  // y_min is ignored when not positive; points at or below zero are left out
  double y_min = 0;
  bool fixed_y_max = false;
  double y_max = 1;
};

std::string line_chart_svg(const std::vector<ChartSeries>& series, const ChartOptions& o);

// One stacked bar per category; each BarStack is one segment kind (one legend entry) with one
// value per category, stacked bottom-up in the given order. Uses o's title, labels and y range
// (log axes do not apply to stacked bars).
struct BarStack {
  std::string name;
  std::vector<double> values;  // per category; missing entries count as 0
};

std::string stacked_bar_svg(const std::vector<std::string>& categories, const std::vector<BarStack>& stacks,
                            const ChartOptions& o);

// Charts of this writer placed side by side in one picture (each keeps its own size; the picture
// is as tall as the tallest).
std::string side_by_side_svg(const std::vector<std::string>& charts);

// Axis ticks at consecutive multiples of a step of 1, 2 or 5 x 10^k, about `target` of them,
// covering [lo, hi]. Exposed for tests and for callers that round their own axis limits.
std::vector<double> nice_ticks(double lo, double hi, int target = 5);

// The tick step nice_ticks uses for a range (1, 2 or 5 x 10^k).
double nice_step(double range, int target = 5);

}  // namespace mlsys
