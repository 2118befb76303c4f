#include "dataopt/pipeline/priors.hpp"

#include <chrono>
#include <filesystem>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "core/util/random.hpp"
#include "dataopt/data/bytes.hpp"

namespace mlsys::dataopt {

namespace fs = std::filesystem;

PriorBuildContext plan_context(const Plan& plan) {
  PriorBuildContext c;
  c.pool_rows = plan.pool_size;
  c.digits_csv = plan.digits_csv;
  c.simclr = plan.simclr;
  return c;
}

PriorBuildContext build_context(DeviceContext& device, const Plan& plan, const DataSource& data, int k, Geometry g) {
  PriorBuildContext c = plan_context(plan);
  c.device = &device;
  c.data = &data;
  c.seed = derive_seed(plan.seed, 1000 + static_cast<uint64_t>(k));
  c.channels = g.c;
  c.height = g.h;
  c.width = g.w;
  return c;
}

namespace {

// Size and time stamp of each file a prior learns from: an edited dataset retrains the prior.
std::string input_stamps(const PriorSpec& spec, const PriorBuildContext& ctx) {
  std::string out;
  for (const fs::path& f : prior_input_files(spec, ctx)) {
    std::error_code ec;
    const auto size = fs::file_size(f, ec);
    const auto time = fs::last_write_time(f, ec);
    if (ec) throw InputError(spec.where + ": prior '" + spec.name + "' cannot read " + f.string() + " (" + ec.message() + ")");
    out += "|" + f.string() + " " + std::to_string(size) + " " + std::to_string(time.time_since_epoch().count());
  }
  return out;
}

}  // namespace

Prior obtain_prior(const Plan& plan, int k, const PriorBuildContext& ctx, PriorStatus* status) {
  const PriorSpec& spec = plan.priors[static_cast<size_t>(k)];
  if (!ctx.device) throw Error("obtain_prior: the build context names no device");
  const auto t0 = std::chrono::steady_clock::now();
  const auto kind = prior_kind_registry().create(spec.kind);
  auto done = [&](Prior p, bool trained) {
    if (status)
      *status = {spec.name, trained, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), p.kind,
                 p.about, p.dim()};
    return p;
  };
  if (!kind->cacheable() || plan.priors_dir.empty()) return done(kind->build(spec, ctx), true);
  const fs::path dir = plan.priors_dir, file = dir / (spec.name + ".prior"), key_file = dir / (spec.name + ".key");
  const std::string key = spec.fingerprint() + "|" + kind->settings(ctx) + "|seed " + std::to_string(ctx.seed) +
                          "|format " + std::to_string(kPriorFormat) + input_stamps(spec, ctx) + "\n";
  if (fs::exists(file) && fs::exists(key_file) && read_bytes(key_file) == key) {
    Prior p = load_prior(*ctx.device, file);
    p.name = spec.name;
    return done(std::move(p), false);
  }
  Prior p = kind->build(spec, ctx);
  save_prior(file, p);
  write_file_atomic(key_file, key);
  return done(std::move(p), true);
}

}  // namespace mlsys::dataopt
