#include "gnn/command.hpp"

#include "core/runtime/run_context.hpp"
#include "core/runtime/run_options.hpp"
#include "core/util/error.hpp"

namespace mlsys::gnn {

// Placeholder until the module lands; replaced by the module's owner.
const CommandSpec& train_gnn_command() {
  static const CommandSpec spec{
      "train-gnn", "(not implemented yet)", "", {&run_section()}, {}, "", {},
      [](RunContext&) { throw Error("mlsys train-gnn is not implemented yet"); }};
  return spec;
}

}  // namespace mlsys::gnn
