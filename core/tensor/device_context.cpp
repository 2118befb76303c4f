#include "core/tensor/device_context.hpp"

#include <map>
#include <mutex>
#include <set>

#include "core/process/system.hpp"
#include "core/util/error.hpp"

namespace mlsys {

namespace {
std::mutex g_names_mu;
std::set<std::string> g_live_names;
// Final statistics of destroyed contexts, so a command's summary (written after its contexts are
// gone) still reports their peaks. One snapshot per name: a new context of that name replaces it.
std::map<std::string, int> g_snapshots;

std::string unique_name(const std::string& base) {
  std::lock_guard<std::mutex> lk(g_names_mu);
  std::string name = base;
  for (int k = 2; g_live_names.count(name); ++k) name = base + "#" + std::to_string(k);
  g_live_names.insert(name);
  auto it = g_snapshots.find(name);
  if (it != g_snapshots.end()) {
    unregister_memory_reporter(it->second);
    g_snapshots.erase(it);
  }
  return name;
}
// A pool's statistics as the run record lists them; device pools name their device, so the
// summary can add up each device's memory (memory_report).
Json pool_json(const PoolStats& stats, const Device& device, bool live) {
  Json j = stats.to_json();
  j["live"] = live;
  if (!device.is_cpu()) j["device"] = device.str();
  return j;
}
void release_name(const std::string& name, const PoolStats& final_stats, const Device& device) {
  std::lock_guard<std::mutex> lk(g_names_mu);
  g_live_names.erase(name);
  if (final_stats.allocations == 0) return;
  Json j = pool_json(final_stats, device, false);
  g_snapshots[name] = register_memory_reporter(name, [j] { return j; });
}
}  // namespace

DeviceContext::DeviceContext(Device device, uint64_t pool_limit_bytes, std::string pool_name)
    : device_(device), backend_(&device_backend(device.kind)) {
  require_device(device);
  std::string name = unique_name(pool_name.empty() ? (device.is_cpu() ? std::string("host") : device.str()) : pool_name);
  pool_ = backend_->make_pool(name, device.index, pool_limit_bytes);
  handles_ = backend_->open(device.index);
  std::weak_ptr<MemoryPool> weak = pool_;
  reporter_id_ = register_memory_reporter(name, [weak, device]() -> Json {
    auto p = weak.lock();
    if (p) return pool_json(p->stats(), device, true);
    Json gone = Json::object();
    gone["live"] = true;
    return gone;
  });
}

DeviceContext::~DeviceContext() {
  unregister_memory_reporter(reporter_id_);
  release_name(pool_->name(), pool_->stats(), device_);
  backend_->close(device_.index, handles_);
}

std::unique_ptr<DeviceContext> DeviceContext::from_options(const DeviceOptions& opts, int local_rank,
                                                           std::string pool_name) {
  auto mb = [](double v) { return static_cast<uint64_t>(v * 1024.0 * 1024.0); };
  if (opts.type == "cpu") return std::make_unique<DeviceContext>(Device::cpu(), mb(opts.host_pool_limit_mb), std::move(pool_name));
  if (opts.type != "cuda") throw ConfigError("device.type must be cpu or cuda, got '" + opts.type + "'");
  device_backend(Device::Kind::cuda);  // a ConfigError with the reason before any host state changes
  cpu_context().pool().set_limit(mb(opts.host_pool_limit_mb));
  return std::make_unique<DeviceContext>(Device::cuda(opts.index + local_rank), mb(opts.device_pool_limit_mb),
                                         std::move(pool_name));
}

void DeviceContext::synchronize() const { backend_->synchronize(device_.index, handles_.stream); }

DeviceContext::Scratch::Scratch(DeviceContext& ctx, size_t bytes)
    : ctx_(ctx), p_(ctx.pool().allocate(bytes, ctx.stream())), bytes_(bytes) {}
DeviceContext::Scratch::~Scratch() { ctx_.pool().deallocate(p_, bytes_, ctx_.stream()); }

DeviceContext& cpu_context() {
  // Never destroyed: tensors in static objects may outlive any ordinary static.
  static DeviceContext* ctx = new DeviceContext(Device::cpu());
  return *ctx;
}

DeviceContext& default_context(Device d) {
  if (d.is_cpu()) return cpu_context();
  static std::mutex mu;
  static auto* contexts = new std::map<int, std::unique_ptr<DeviceContext>>();
  std::lock_guard<std::mutex> lk(mu);
  auto& slot = (*contexts)[d.index];
  if (!slot) slot = std::make_unique<DeviceContext>(d);
  return *slot;
}

}  // namespace mlsys
