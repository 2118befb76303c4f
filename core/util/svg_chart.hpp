#pragma once
// The SVG chart writer of the project (no dependency): a line chart with axes and ticks (linear or
// log x), one polyline per series and a legend. Output is deterministic text, so plots are part of
// the byte-identical outputs.
#include <string>
#include <vector>

namespace mlsys {

struct ChartSeries {
  std::string name;
  std::vector<double> x, y;
};

struct ChartOptions {  // y axis: from y_min to the data maximum, or to y_max when fixed_y_max
  std::string title, x_label, y_label;
  bool log_x = false;
  double y_min = 0;
  bool fixed_y_max = false;
  double y_max = 1;
};

std::string line_chart_svg(const std::vector<ChartSeries>& series, const ChartOptions& o);

}  // namespace mlsys
