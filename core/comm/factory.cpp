#include "core/comm/factory.hpp"

#include "core/util/error.hpp"

namespace mlsys::comm {

BackendRegistry& backend_registry() {
  static BackendRegistry r("communicator backend");
  return r;
}

void Backend::run_ranks(const CommOptions& options, const RankBody& body) const {
  auto comm = make(options, -1);
  body(*comm);
}

std::unique_ptr<Backend> backend(const std::string& name) {
  auto b = backend_registry().create(name);
  if (!b->built()) throw ConfigError("comm.backend '" + name + "' is not built into this mlsys; " + b->why_not_built());
  return b;
}

std::vector<std::string> available_backends() {
  std::vector<std::string> out;
  for (const auto* e : backend_registry().entries())
    if (e->factory()->built()) out.push_back(e->name);
  return out;
}

bool backend_available(const std::string& name) {
  return backend_registry().contains(name) && backend_registry().create(name)->built();
}

void require_backend(const std::string& name) { backend(name); }

void run_ranks(const CommOptions& options, const RankBody& body) { backend(options.backend)->run_ranks(options, body); }

std::unique_ptr<Communicator> make_communicator(const CommOptions& options) {
  return backend(options.backend)->make(options, -1);
}

}  // namespace mlsys::comm
