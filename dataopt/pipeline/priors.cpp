#include "dataopt/pipeline/priors.hpp"

#include <chrono>
#include <filesystem>

#include "core/util/fs.hpp"
#include "core/util/random.hpp"
#include "dataopt/data/bytes.hpp"

namespace mlsys::dataopt {

namespace fs = std::filesystem;

PriorBuildContext build_context(DeviceContext& device, const Plan& plan, const DataSource& data, int k,
                                const fs::path& digits_csv) {
  PriorBuildContext c;
  c.device = &device;
  c.data = &data;
  c.seed = derive_seed(plan.seed, 1000 + static_cast<uint64_t>(k));
  c.pool_rows = plan.pool_size;
  c.digits_csv = digits_csv;
  return c;
}

Prior obtain_prior(const Plan& plan, int k, const PriorBuildContext& ctx, PriorStatus* status) {
  const PriorSpec& spec = plan.priors[static_cast<size_t>(k)];
  if (!ctx.device) throw Error("obtain_prior: the build context names no device");
  const auto t0 = std::chrono::steady_clock::now();
  const auto kind = prior_kind_registry().create(spec.kind);
  auto done = [&](Prior p, bool trained) {
    if (status)
      *status = {spec.name, trained, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()};
    return p;
  };
  if (!kind->cacheable() || plan.priors_dir.empty()) return done(kind->build(spec, ctx), true);
  const fs::path file = plan.priors_dir / (spec.name + ".prior"), key_file = plan.priors_dir / (spec.name + ".key");
  const std::string key =
      spec.fingerprint() + "|seed " + std::to_string(ctx.seed) + "|format " + std::to_string(kPriorFormat) + "\n";
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
