#include "gnn/report/figures.hpp"

#include <fmt/format.h>

#include "core/util/svg_chart.hpp"

namespace mlsys::gnn {

std::string curves_svg(const std::vector<EpochRecord>& epochs, const std::string& title, FigureSize size) {
  ChartSeries loss{"training loss", {}, {}};
  ChartSeries train{"train", {}, {}}, val{"validation", {}, {}}, test{"test", {}, {}};
  for (const auto& e : epochs) {
    const double x = e.epoch;
    loss.x.push_back(x);
    loss.y.push_back(e.loss);
    for (auto [s, v] : {std::pair{&train, e.train_acc}, std::pair{&val, e.val_acc}, std::pair{&test, e.test_acc}})
      if (v >= 0) {
        s->x.push_back(x);
        s->y.push_back(100 * v);
      }
  }
  // Each panel is column-wide (a page-wide figure is two of them); screen drafts keep their size.
  const FigureSize panel = size == FigureSize::kScreen ? FigureSize::kScreen : FigureSize::kColumn;
  ChartOptions lo;
  lo.size = panel;
  lo.title = title + ": loss";
  lo.x_label = "epoch";
  lo.y_label = "loss";
  std::vector<std::string> panels = {line_chart_svg({loss}, lo)};
  std::vector<ChartSeries> acc;
  for (auto* s : {&train, &val, &test})
    if (!s->x.empty()) acc.push_back(*s);
  if (!acc.empty()) {
    ChartOptions ao;
    ao.size = panel;
    ao.title = title + ": accuracy";
    ao.x_label = "epoch";
    ao.y_label = "accuracy (%)";
    ao.fixed_y_max = true;
    ao.y_max = 100;
    panels.push_back(line_chart_svg(acc, ao));
  }
  return size == FigureSize::kColumn ? stacked_svg(panels) : side_by_side_svg(panels);
}

TimeSplit mean_time_split(const std::vector<EpochRecord>& epochs) {
  TimeSplit t;
  int n = 0;
  for (const auto& e : epochs) {
    if (e.epoch == 0 && epochs.size() > 1) continue;
    t.compute_s += e.mean.compute_s;
    t.quant_s += e.mean.quant_s;
    t.comm_s += e.mean.comm_s;
    t.wait_s += e.mean.wait_s;
    t.reduce_s += e.mean.reduce_s;
    ++n;
  }
  if (n > 0)
    for (double* v : {&t.compute_s, &t.quant_s, &t.comm_s, &t.wait_s, &t.reduce_s}) *v /= n;
  return t;
}

std::string time_breakdown_svg(const std::vector<BreakdownBar>& bars, const std::string& title, FigureSize size) {
  std::vector<std::string> labels;
  std::vector<BarStack> stacks = {{"compute", {}}, {"quantize", {}}, {"communicate", {}}, {"wait", {}}, {"all-reduce", {}}};
  for (const auto& b : bars) {
    labels.push_back(b.label);
    const double ms[] = {b.split.compute_s, b.split.quant_s, b.split.comm_s, b.split.wait_s, b.split.reduce_s};
    for (size_t k = 0; k < stacks.size(); ++k) stacks[k].values.push_back(1e3 * ms[k]);
  }
  ChartOptions o;
  o.size = size;
  o.title = title;
  o.x_label = "configuration";
  o.y_label = "mean time per epoch and worker (ms)";
  return stacked_bar_svg(labels, stacks, o);
}

std::string run_label(const GnnOptions& o) {
  return fmt::format("{} worker{}, {}/{} bits{}", o.parts, o.parts == 1 ? "" : "s", o.fwd_bits, o.bwd_bits,
                     o.pipeline && o.parts > 1 ? ", pipelined" : "");
}

}  // namespace mlsys::gnn
