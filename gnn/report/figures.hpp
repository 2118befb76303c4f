#pragma once
// The figures `train-gnn` writes with each run (through core/util/svg_chart, deterministic text):
// loss and accuracy curves against the epoch, and Sylvie's time breakdown — per configuration one
// stacked bar of the mean seconds per epoch spent computing, quantizing, communicating, waiting
// and all-reducing (one bar for a single run; a sweep passes one TimeSplit per configuration).
#include <string>
#include <vector>

#include "core/util/svg_chart.hpp"
#include "gnn/options.hpp"
#include "gnn/train/epoch_record.hpp"

namespace mlsys::gnn {

// Loss and train/val/test accuracy in percent against the epoch: two column-wide panels, one
// above the other at column size, side by side at page size (two screen panels at screen size).
// Accuracies that were not evaluated in an epoch (negative in the record) are left out, not drawn
// as 0 or -1.
std::string curves_svg(const std::vector<EpochRecord>& epochs, const std::string& title, FigureSize size);

// Mean per-worker seconds per epoch. Epoch 0 is left out when there are more (it is synchronous
// and warms pools and caches), as in summary.json's mean_time_split.
struct TimeSplit {
  double compute_s = 0, quant_s = 0, comm_s = 0, wait_s = 0, reduce_s = 0;
};
TimeSplit mean_time_split(const std::vector<EpochRecord>& epochs);

struct BreakdownBar {
  std::string label;  // the configuration, e.g. run_label(options)
  TimeSplit split;
};
std::string time_breakdown_svg(const std::vector<BreakdownBar>& bars, const std::string& title, FigureSize size);

// A short label for a run's configuration: workers, halo bit widths, pipelining.
std::string run_label(const GnnOptions& o);

}  // namespace mlsys::gnn
