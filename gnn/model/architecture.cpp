#include "gnn/model/architecture.hpp"

namespace mlsys::gnn {

ArchitectureRegistry& architecture_registry() {
  static ArchitectureRegistry r("GNN architecture");
  return r;
}

std::unique_ptr<Architecture> architecture(const std::string& name) { return architecture_registry().create(name); }

}  // namespace mlsys::gnn
