#pragma once
#include "core/runtime/command.hpp"

namespace mlsys::gnn {

// `mlsys train-gnn`: sections, modes and the run function.
const CommandSpec& train_gnn_command();

}  // namespace mlsys::gnn
