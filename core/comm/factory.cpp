#include "core/comm/factory.hpp"

#include <map>
#include <mutex>

#include "core/tensor/plugin.hpp"
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
  BackendStatus s = b->status();
  if (!s.available) throw ConfigError("comm.backend '" + name + "' is unavailable: " + s.detail);
  return b;
}

namespace {
struct PluginEntry {
  CommunicatorFactory factory;
  std::string detail;
};
std::mutex g_plugin_mu;
std::map<std::string, PluginEntry>& plugin_entries() {
  static auto* m = new std::map<std::string, PluginEntry>();
  return *m;
}
}  // namespace

void register_plugin_communicator(const std::string& name, CommunicatorFactory factory, std::string detail) {
  std::lock_guard<std::mutex> lock(g_plugin_mu);
  plugin_entries()[name] = PluginEntry{std::move(factory), std::move(detail)};
}

PluginCommunicator plugin_communicator(const std::string& name) {
  if (std::string err = plugin::load(name); !err.empty()) return {{false, err}, nullptr};
  std::lock_guard<std::mutex> lock(g_plugin_mu);
  auto it = plugin_entries().find(name);
  if (it == plugin_entries().end())
    return {{false, plugin::file_name(name) + " loaded but registered no '" + name + "' communicator"}, nullptr};
  return {{true, it->second.detail}, it->second.factory};
}

std::vector<std::string> available_backends() {
  std::vector<std::string> out;
  for (const auto* e : backend_registry().entries())
    if (e->factory()->status().available) out.push_back(e->name);
  return out;
}

bool backend_available(const std::string& name) {
  return backend_registry().contains(name) && backend_registry().create(name)->status().available;
}

void require_backend(const std::string& name) { backend(name); }

void run_ranks(const CommOptions& options, const RankBody& body) { backend(options.backend)->run_ranks(options, body); }

std::unique_ptr<Communicator> make_communicator(const CommOptions& options) {
  return backend(options.backend)->make(options, -1);
}

std::string backends_report() {
  std::string out;
  auto line = [&](const std::string& name, const std::string& what, const BackendStatus& s) {
    out += "    " + name + std::string(name.size() < 8 ? 8 - name.size() : 1, ' ') + what + " " +
           (s.available ? "available" : "unavailable") + (s.detail.empty() ? "" : ": " + s.detail) + "\n";
  };
  for (Device::Kind k : {Device::Kind::cpu, Device::Kind::cuda}) line(kind_name(k), "device      ", device_backend_status(k));
  for (const auto* e : backend_registry().entries()) line(e->name, "communicator", e->factory()->status());
  return out;
}

}  // namespace mlsys::comm
