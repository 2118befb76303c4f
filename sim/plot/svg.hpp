#pragma once
// Minimal SVG line charts (no dependency): axes with ticks, one polyline per series, legend.
#include <string>
#include <vector>

namespace mlsys::sim {

struct Series {
  std::string name;
  std::vector<double> x, y;
};

struct ChartOptions {
  std::string title, x_label, y_label;
  bool log_x = false;
  double y_min = 0;
  bool fixed_y_max = false;
  double y_max = 1;
};

std::string line_chart_svg(const std::vector<Series>& series, const ChartOptions& o);

}  // namespace mlsys::sim
