#pragma once
// A small line chart written as SVG text (no dependencies): one polyline per series with a legend,
// axes with ticks, and optional error bars (mean +- spread).
#include <string>
#include <vector>

namespace mlsys::dataopt {

struct PlotSeries {
  std::string name;
  std::vector<double> x, y, spread;  // spread may be empty
};

std::string svg_line_chart(const std::string& title, const std::string& x_label, const std::string& y_label,
                           const std::vector<PlotSeries>& series);

}  // namespace mlsys::dataopt
