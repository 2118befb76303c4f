#pragma once
// Known progress-line formats. Each line is scanned once by hand-written code (no regex): the
// tracker must keep up with hundreds of thousands of lines per second.
#include <cmath>
#include <string_view>

namespace mlsys::schedmate {

enum class LogFormat { Unknown, Tqdm, Lightning, HfTrainer, Megatron, Keras, DeepSpeed, Plain, Learned };
const char* to_string(LogFormat f);

struct ProgressObs {
  LogFormat format = LogFormat::Unknown;
  double done = 0;           // units finished (steps, or epochs when `epochs`)
  double total = NAN;        // NaN when the line does not say
  bool epochs = false;
  double elapsed_s = NAN;    // tqdm's elapsed field (bar-relative)
  double rate_hint = NAN;    // units per second stated by the line (it/s, ms per iteration)
};

// What earlier lines told us: Keras's current epoch, totals from header lines.
struct ParserState {
  double keras_epoch = NAN, keras_epochs = NAN;  // from "Epoch 3/10" (1-based)
  double total_steps_hint = NAN, total_epochs_hint = NAN;
  bool hf_seen = false;  // saw a Trainer metrics dict ({'loss': ...})
};

// Parses a line (timestamp already stripped). Returns true and fills `out` for a progress line.
bool parse_progress(std::string_view line, ParserState& st, ProgressObs& out);

// Header lines that state the run's length ("Total optimization steps = 1752", "max_epochs=10",
// "train_iters ...... 5000"). Returns true when it updated a hint.
bool parse_length_hint(std::string_view line, ParserState& st);

// Helpers shared with the learned-format matcher.
bool parse_number(std::string_view s, size_t& pos, double& value);  // skips nothing; advances pos
bool first_number(std::string_view token, double& value);            // first number inside a token

}  // namespace mlsys::schedmate
