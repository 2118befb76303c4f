#include "apps/mlsys/commands.hpp"

#include "dataopt/command.hpp"
#include "gnn/command.hpp"
#include "sched/schedmate/command.hpp"
#include "sim/command.hpp"

namespace mlsys::app {

const std::vector<const CommandSpec*>& commands() {
  static const std::vector<const CommandSpec*> table = {
      &gnn::train_gnn_command(),
      &sim::simulate_command(),
      &schedmate::schedmate_command(),
      &dataopt::coopt_command(),
  };
  return table;
}

const CommandSpec* find_command(const std::string& name) {
  for (const auto* c : commands())
    if (c->name == name) return c;
  return nullptr;
}

}  // namespace mlsys::app
