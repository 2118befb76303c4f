#include "dataopt/app/setup.hpp"

#include <algorithm>

#include "core/comm/factory.hpp"
#include "core/log/log.hpp"
#include "core/process/system.hpp"
#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "core/util/random.hpp"
#include "dataopt/data/idx.hpp"
#include "dataopt/eval/probe.hpp"
#include "dataopt/pipeline/exchange.hpp"

namespace mlsys::dataopt {

namespace fs = std::filesystem;

std::unique_ptr<DeviceContext> Setup::context(const std::string& name) const {
  // One GPU per MPI process of a node (as train-gnn: device.index + the launcher rank); on cuda the
  // host pool limit applies to the host staging context (batches, probes).
  return DeviceContext::from_options(device, std::max(0, launcher_rank()), name);
}

OneMathThread::OneMathThread() : saved_(thread_count()) { set_thread_count(1); }
OneMathThread::~OneMathThread() { set_thread_count(saved_); }

namespace {

// The files this run reads, into the run record (summary.json "run.inputs": path, size, content
// hash): the target dataset's IDX files (or the built-in synthetic set) and, per prior, the files
// it learns from or loads.
void record_inputs(RunContext& ctx, const Setup& s) {
  if (s.data->synthetic()) {
    ctx.record_builtin_input("coopt.data", s.data->describe());
  } else {
    const std::vector<std::string> splits = s.opt.eval_on == "validation" ? std::vector<std::string>{"train"}
                                                                          : std::vector<std::string>{"train", "test"};
    for (const std::string& split : splits)
      for (const char* kind : {"images", "labels"})
        ctx.record_input("coopt.data." + split + "." + kind, find_idx_file(s.opt.data.dir, split, kind));
  }
  for (const PriorSpec& spec : s.plan.priors) {
    if (spec.target_data() && spec.rows_end > spec.rows_begin) continue;  // learns from the target files above
    auto files = prior_input_files(spec, plan_context(s.plan));
    for (size_t i = 0; i < files.size(); ++i)
      ctx.record_input("coopt.priors." + spec.name + (files.size() == 1 ? "" : "[" + std::to_string(i) + "]"), files[i]);
  }
}

}  // namespace

Setup make_setup(RunContext& ctx) {
  Setup s;
  s.opt = ctx.get(coopt_section());
  s.device = ctx.get(device_section());
  const CooptOptions& o = s.opt;
  s.data = std::make_unique<DataSource>(o.data);
  Plan& p = s.plan = o.plan;
  if (p.pool_begin + p.pool_size > s.data->train_count())
    throw ConfigError("coopt.pool.begin + coopt.pool.size = " + std::to_string(p.pool_begin + p.pool_size) +
                      " exceeds the " + std::to_string(s.data->train_count()) + " train images of " + s.data->describe());
  // A file the user names is the file used: a missing one stops the run (no fallback).
  if (!p.digits_csv.empty() && !fs::is_regular_file(p.digits_csv))
    throw ConfigError("coopt.data.digits_csv: " + p.digits_csv + " is not a file");
  p.priors = parse_prior_specs(p.prior_list);
  for (const PriorSpec& spec : p.priors)
    if (spec.target_data() && spec.rows_end > p.pool_begin && spec.rows_begin < p.pool_begin + p.pool_size)
      throw ConfigError(spec.where + ": prior '" + spec.name + "' rows [" + std::to_string(spec.rows_begin) + ", " +
                        std::to_string(spec.rows_end) + ") overlap the pool [" + std::to_string(p.pool_begin) + ", " +
                        std::to_string(p.pool_begin + p.pool_size) + "); priors must not see pool images");
  p.seed = ctx.seed();
  if (p.priors_dir.empty()) p.priors_dir = ctx.path("priors");
  if (p.dataset_dir.empty()) p.dataset_dir = ctx.path("optimized");
  if (p.pool_size < 2 * p.participants())
    throw ConfigError("coopt.pool.size must give every participant at least 2 images");
  if (o.eval_on == "validation") {
    const int64_t vb = o.validation_begin, ve = o.validation_begin + o.validation_size;
    if (o.validation_size < 1) throw ConfigError("coopt.eval.on: validation needs coopt.eval.validation.size > 0");
    if (ve > s.data->train_count())
      throw ConfigError("coopt.eval.validation rows [" + std::to_string(vb) + ", " + std::to_string(ve) + ") exceed the " +
                        std::to_string(s.data->train_count()) + " train images");
    if (ve > p.pool_begin && vb < p.pool_begin + p.pool_size)
      throw ConfigError("coopt.eval.validation rows overlap the pool; choose train rows outside it");
    for (const PriorSpec& spec : p.priors)
      if (spec.target_data() && spec.rows_end > vb && spec.rows_begin < ve)
        throw ConfigError(spec.where + ": prior '" + spec.name + "' rows overlap the validation split");
  }
  record_inputs(ctx, s);
  return s;
}

std::vector<PriorStatus> prepare_priors(const Setup& s) {
  std::vector<PriorStatus> out;
  ensure_dir(s.plan.priors_dir);
  const ImageSet probe = s.data->train_rows(s.plan.pool_begin, s.plan.pool_begin + 1);
  const auto device = s.context("coopt.priors");
  for (int k = 0; k < s.plan.participants(); ++k) {
    PriorStatus st;
    obtain_prior(s.plan, k, build_context(*device, s.plan, *s.data, k, probe.geometry()), &st);
    log::info("coopt: prior {} {} in {:.2f}s", st.name, st.trained ? "trained" : "reloaded", st.seconds);
    out.push_back(st);
  }
  return out;
}

ParticipantReport participant_phase(RunContext& ctx, const Setup& s, bool* is_root) {
  CommOptions co = ctx.get(comm_section());
  ParticipantReport rep;
  bool root = false;
  // One BLAS/OpenMP thread per rank whatever the rank count, so the targets are bit-identical for
  // any number of ranks (multi-threaded GEMMs and reductions may round differently).
  OneMathThread one;
  // This process's rank contexts are made (and released) here, in rank order, so summary.json
  // lists their pools in the same order every run; inproc ranks are threads that would register
  // them in whatever order they start.
  const bool inproc = co.backend == "inproc";
  std::vector<std::unique_ptr<DeviceContext>> devices;
  for (int r = 0; r < (inproc ? co.world_size : 1); ++r)
    devices.push_back(s.context("coopt.rank" + std::to_string(inproc ? r : std::max(0, launcher_rank()))));
  comm::run_ranks(co, [&](comm::Communicator& c) {
    set_thread_count(1);
    DeviceContext& device = *devices[static_cast<size_t>(inproc ? c.rank() : 0)];
    // Every rank must write where rank 0 writes, even when MPI processes resolved "" differently.
    Exchange x(c, device);
    Plan plan = s.plan;
    auto agree = [&](std::string& p) {
      std::vector<char> dir(4096, 0);
      std::copy_n(p.begin(), std::min(p.size(), dir.size() - 1), dir.begin());
      x.broadcast(dir, 0);
      p = dir.data();
    };
    agree(plan.dataset_dir);
    agree(plan.priors_dir);
    ParticipantReport r = run_participants(c, device, plan, *s.data);
    if (c.rank() == 0) {
      rep = std::move(r);
      root = true;
    }
  });
  for (auto& d : devices) d.reset();
  if (is_root) *is_root = root;
  return rep;
}

ProbeData probe_data(const Setup& s, const Tensor& pool_images, uint64_t seed) {
  ProbeData d;
  const ImageSet pool = s.data->train_rows(s.plan.pool_begin, s.plan.pool_begin + s.plan.pool_size);
  const ImageSet test = s.opt.eval_on == "validation"
                            ? s.data->train_rows(s.opt.validation_begin, s.opt.validation_begin + s.opt.validation_size)
                            : s.data->test(s.plan.test_size);
  d.pool_images = pool_images;
  d.pool_labels = pool.labels;
  d.test_images = test.images();
  d.test_labels = test.labels;
  d.classes = std::max(pool.classes, test.classes);
  d.few_rows = labeled_subset(d.pool_labels, d.classes, s.opt.labels_per_class, derive_seed(seed, 0xfe3));
  return d;
}

FitOptions student_fit(const CooptOptions& o, uint64_t seed) {
  FitOptions f;
  f.epochs = o.epochs;
  f.batch = o.batch;
  f.lr = o.lr;
  f.seed = seed;
  f.augment = {o.shift, o.flip, o.noise};
  return f;
}

}  // namespace mlsys::dataopt
