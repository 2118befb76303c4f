#pragma once
#include "core/runtime/command.hpp"
#include "core/runtime/run_context.hpp"

namespace mlsys::dataopt {

void run_mode(RunContext& ctx);       // quick end-to-end demo (default)
void priors_mode(RunContext& ctx);    // train + save priors
void optimize_mode(RunContext& ctx);  // participant phase -> optimized dataset
void train_mode(RunContext& ctx);     // student on an existing optimized dataset
void compare_mode(RunContext& ctx);   // the evaluation table and plots

}  // namespace mlsys::dataopt
