#pragma once
// Known progress-line formats. Each line is scanned once by hand-written code (no regex): the
// tracker must keep up with hundreds of thousands of lines per second.
#include <cmath>
#include <string>
#include <string_view>

namespace mlsys::schedmate {

enum class LogFormat { Unknown, Tqdm, Lightning, HfTrainer, Megatron, Keras, DeepSpeed, Plain, Mlperf, Learned };
const char* to_string(LogFormat f);

struct ProgressObs {
  LogFormat format = LogFormat::Unknown;
  double done = 0;           // units finished (steps, or epochs when `epochs`)
  double total = NAN;        // NaN when the line does not say
  bool epochs = false;
  double elapsed_s = NAN;    // tqdm's elapsed field (bar-relative)
  double rate_hint = NAN;    // units per second stated by the line (it/s, ms per iteration)
  // What a tqdm bar states about itself: n/total and the remaining time (`[elapsed<remaining`).
  double bar_fraction = NAN;
  double bar_remaining_s = NAN;
  bool bar_is_run = false;   // the bar counts the whole run (tqdm, HF Trainer), not one epoch
};

// What earlier lines told us: Keras's current epoch, totals from header lines.
struct ParserState {
  double keras_epoch = NAN, keras_epochs = NAN;  // from "Epoch 3/10" (1-based)
  double total_steps_hint = NAN, total_epochs_hint = NAN;
  bool hf_seen = false;  // saw a Trainer metrics dict ({'loss': ...})
  // MLPerf `:::MLLOG` events: the line's own clock, the run's quality and state.
  double line_time_s = NAN;  // clock of the last MLLOG line (NaN for other lines)
  std::string benchmark;
  double quality = NAN, quality_target = NAN;
  double run_start_s = NAN, run_stop_s = NAN;
  std::string run_status;  // "" while running; success, aborted, ... once run_stop is logged
  double epochs_done = NAN;
};

// Parses a line (timestamp already stripped). Returns true and fills `out` for a progress line.
// MLPerf `:::MLLOG` lines (sched/workload/traces/mlperf.hpp) count epochs (epoch_stop, block_stop,
// epoch numbers of eval_accuracy) and update the run's quality and state in `st`.
bool parse_progress(std::string_view line, ParserState& st, ProgressObs& out);

// Header lines that state the run's length ("Total optimization steps = 1752", "max_epochs=10",
// "train_iters ...... 5000"). Returns true when it updated a hint.
bool parse_length_hint(std::string_view line, ParserState& st);

// Helpers shared with the learned-format matcher.
bool parse_number(std::string_view s, size_t& pos, double& value);  // skips nothing; advances pos
bool first_number(std::string_view token, double& value);            // first number inside a token

}  // namespace mlsys::schedmate
