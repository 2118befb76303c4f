#pragma once
// Predicted-vs-true scatter plot as SVG (log-log axes, one colour per estimator, the y = x line and
// the +-50% band). core/util/svg_chart draws line charts only; this is the scatter beside it for
// `schedmate evaluate` until the chart writer has one. Deterministic text.
#include <string>
#include <vector>

namespace mlsys::schedmate {

struct ScatterSeries {
  std::string name;
  std::vector<double> x, y;  // true, predicted (positive; others are skipped)
};

std::string scatter_svg(const std::vector<ScatterSeries>& series, const std::string& title, const std::string& x_label,
                        const std::string& y_label);

}  // namespace mlsys::schedmate
