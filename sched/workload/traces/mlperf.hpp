#pragma once
// What the two MLPerf Training readers share (readers/mlperf_reader.cpp for `runs.csv`,
// readers/mlperf_log_reader.cpp for raw `result_<k>.txt` logs) and what SchedMate's tracker reads
// from the same logs: the benchmarks' definitions, accelerators from system names, the job text
// built from a run's facts, and the `:::MLLOG {json}` line format.
//
// MLPerf Training results (mlcommons/training_results_v0.6, _v0.7): each benchmark is a fixed model,
// data set and quality target; a run is timed from `run_start` to `run_stop` (time-to-train) and
// ends with status success or aborted.
#include <cmath>
#include <optional>
#include <string>
#include <string_view>

#include "core/util/json.hpp"

namespace mlsys::workload {

// The MLPerf quality target of a benchmark (v0.7 rules; the six v0.6 benchmarks had the same
// targets). Eval values are logged as fractions (BLEU 24.0 is logged as 0.24), and `target` uses the
// same unit. Only the tracker reads it (how far a run is from its target); a run's job text never
// includes anything from this table.
struct MlperfBenchmark {
  std::string_view name;     // submission_benchmark: resnet, bert, ...
  std::string_view metric;   // top1_accuracy, bleu, map, ...
  double target = NAN;       // quality that ends the run (maskrcnn: the box mAP; mask mAP 0.339)
};
// nullptr for a benchmark name MLPerf does not define.
const MlperfBenchmark* mlperf_benchmark(std::string_view name);

// The accelerators a system name states, by the naming conventions of the submitters (DGX-1/-2/-2H
// hold 8/16/16 V100, DGX A100 8 A100; `tpu-v3-32` counts TPU cores, 2 per chip, and MLPerf counts
// chips; `v100-512`, `8xV100`, `V100x8` name kind and count; `_n<k>_` is k nodes; Intel `cpx`/`clx`
// are CPU systems). kind "" when the name does not say; count 0 when it does not say.
struct Accelerators {
  std::string kind;  // v100, a100, tpu-v3, tpu-v4, cpu, ""
  int count = 0;
  std::string problem;  // non-empty when a count the name states is refused (count is then 0)
};
Accelerators accelerators_from_system(std::string_view system);

// The facts of one MLPerf run, as both readers fill them.
struct MlperfRun {
  std::string round, org, system, benchmark, framework;
  std::string kind;  // accelerator kind
  int accelerators = 0;
};
// The text SchedMate and the simulator see as the job's command: what the run states (runs.csv and
// the log's submission_* lines) as `key=value` words (values with blanks quoted), e.g.
//   mlperf benchmark=bert framework="PyTorch NVIDIA Release 20.06" system=dgxa100_n32_ngc20.06_pytorch
//   accelerator=a100 accelerators=256 submitter=NVIDIA round=v0.7
// Nothing is added from a table of the benchmarks (model, data set, task): until issue 28 it was,
// and the evaluation's workloads should not be described to the predictor by hand.
std::string mlperf_command(const MlperfRun& run);
// The job name: `<system>/<benchmark>`, the results folder of the submission.
std::string mlperf_job_name(const MlperfRun& run);

// One `:::MLLOG {json}` line (any prefix before the marker, e.g. "0: " from a launcher, is
// allowed). v0.6-era `:::MLL <seconds> <key>: <value>` lines are read too.
struct MllogEvent {
  std::string key;
  double time_s = NAN;  // from time_ms (or time_s); NaN when the line has no clock
  Json value;
  Json metadata;        // object (may be empty)
  // Numeric metadata field, NaN when absent.
  double meta_number(std::string_view k) const;
  std::string meta_string(std::string_view k) const;
};
// nullopt for a line that is not an MLLOG event (or whose JSON does not parse).
std::optional<MllogEvent> parse_mllog_line(std::string_view line);
// Clocks below this (ms since 1970) are not epoch times: a logger that wrote seconds plus a
// millisecond offset (v0.7 HugeCTR dlrm). Such a run has a duration but no usable start time.
constexpr double kMinEpochMs = 1e11;  // March 1973

// The quality an `eval_accuracy` value states: a number, or for maskrcnn the box mAP of
// {"BBOX": b, "SEGM": s}. NaN when neither.
double mllog_quality(const Json& value);

}  // namespace mlsys::workload
