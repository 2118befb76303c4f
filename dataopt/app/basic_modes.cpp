// The run (quickstart), priors, optimize and train modes.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "core/runtime/table.hpp"
#include "core/util/error.hpp"
#include "core/util/random.hpp"
#include "dataopt/app/modes.hpp"
#include "dataopt/app/setup.hpp"
#include "dataopt/pipeline/optimized_dataset.hpp"

namespace mlsys::dataopt {

namespace {

void report_participants(RunContext& ctx, const ParticipantReport& rep, const Plan& plan) {
  ctx.summary()["participants"] = *rep.manifest.find("participants");
  ctx.summary()["reference"] = rep.names[static_cast<size_t>(rep.reference)];
  ctx.write_json("timing.json", Json(Json::Object{{"participant_phase_s", Json(rep.seconds)}}));
  ctx.say(fmt::format("participant phase: {} participants, |S| = {}, reference '{}' (best uniformity), {:.2f}s",
                      rep.names.size(), rep.alignment_rows, rep.names[static_cast<size_t>(rep.reference)], rep.seconds));
  for (size_t k = 0; k < rep.names.size(); ++k)
    ctx.say(fmt::format("  {:<10} uniformity {:7.3f}  alignment mse on S {:.4f} -> {:.4f}, leave-one-out R^2 {:.3f}, weight {:.3f}",
                        rep.names[k], rep.uniformity[k], rep.mse_before[k], rep.mse_after[k], rep.loo_r2[k], rep.weight[k]));
  ctx.say("optimized dataset: " + plan.dataset_dir);
}

// Trains the configured student on the optimized dataset and probes it next to baselines a
// newcomer can judge it by: the same student on the unaligned targets (what the alignment buys),
// the same network untrained (same initialization) and raw pixels. A first run must not show the
// student losing to a baseline without saying why.
void train_and_probe(RunContext& ctx, const Setup& s, const OptimizedDataset& od) {
  const CooptOptions& o = s.opt;
  StudentRun r;
  r.arch = o.student == "cnn" ? o.cnn_arch : o.mlp_arch;
  r.geometry = od.geometry;
  r.fit = student_fit(o, derive_seed(ctx.seed(), 0x51));
  r.eval_epochs = {o.epochs};
  r.init_seed = derive_seed(ctx.seed(), 0x1417);
  const auto device = s.context("coopt.student");
  const Tensor y = standardized(*device, od.targets);
  r.targets = &y;
  r.weights = &od.weight;
  ProbeData pd = probe_data(s, od.images, ctx.seed());
  double secs = 0;
  const ProbePoint p = run_student(*device, r, od.images, pd, &secs).back();

  struct Baseline {
    std::string key, label;
    ProbePoint point;
  };
  std::vector<Baseline> baselines;
  if (od.targets_unaligned.defined()) {  // as in compare's coopt_noalign row: no weights without a fit
    const Tensor y_unaligned = standardized(*device, od.targets_unaligned);
    StudentRun u = r;
    u.targets = &y_unaligned;
    u.weights = nullptr;
    baselines.push_back({"unaligned_student", "the unaligned student (T = I)", run_student(*device, u, od.images, pd).back()});
  }
  StudentRun untrained = r;
  untrained.objective = StudentObjective::none;
  baselines.push_back({"untrained_student", "the untrained network", run_student(*device, untrained, od.images, pd).back()});
  baselines.push_back({"raw_pixels", "raw pixels", probe_features(*device, pd.pool_images, pd.test_images, pd, 0)});

  Json& sum = ctx.summary();
  sum["student"] = Json(Json::Object{{"arch", Json(r.arch)}, {"epochs", Json(o.epochs)},
                                     {"few_label_acc", Json(p.few)}, {"all_label_acc", Json(p.all)}});
  const std::string scored = o.eval_on == "validation" ? "validation rows" : "test images";
  ctx.say(fmt::format("student {} after {} epoch(s) ({:.1f}s): linear probe {:.1f}% with {} labels/class, {:.1f}% with all "
                      "labels ({})",
                      r.arch, o.epochs, secs, 100 * p.few, o.labels_per_class, 100 * p.all, scored));
  std::string listed, gains, trailed;
  for (const Baseline& b : baselines) {
    sum[b.key] = Json(Json::Object{{"few_label_acc", Json(b.point.few)}, {"all_label_acc", Json(b.point.all)}});
    listed += fmt::format("{}{} {:.1f}% / {:.1f}%", listed.empty() ? "" : ", ", b.label, 100 * b.point.few, 100 * b.point.all);
    gains += fmt::format("{}{:+.1f} over {}", gains.empty() ? "" : ", ", 100 * (p.few - b.point.few), b.label);
    if (p.few <= b.point.few) trailed += (trailed.empty() ? "" : " and ") + b.label;
  }
  ctx.say("  baselines: " + listed);
  ctx.say(fmt::format("  gain with {} labels/class (one seed), points: {}", o.labels_per_class, gains));
  if (!trailed.empty())
    ctx.say(fmt::format("  why it trails {}: a demo budget of seconds ({} epoch(s) on a {}-image pool, |S| = {}), and a "
                        "ridge probe on raw pixels is a strong baseline with few labels. Numbers over seeds and what a larger "
                        "budget buys: docs/coopt.md (\"The quickstart\"); CoOpt's measured gains: "
                        "`mlsys coopt compare configs/coopt/fashion_mnist.yaml`",
                        trailed, o.epochs, s.plan.pool_size, s.plan.alignment_rows().size()));
}

}  // namespace

void run_mode(RunContext& ctx) {
  Setup s = make_setup(ctx);
  ctx.say("coopt: " + s.data->describe() + ", pool of " + std::to_string(s.plan.pool_size) + " images");
  prepare_priors(s);
  bool root = false;
  const ParticipantReport rep = participant_phase(ctx, s, &root);
  if (!root) return;
  report_participants(ctx, rep, s.plan);
  train_and_probe(ctx, s, read_optimized(s.plan.dataset_dir));
}

void priors_mode(RunContext& ctx) {
  Setup s = make_setup(ctx);
  // The model zoo: one row per prior (what it is and learned from); times stay in run.log.
  Table zoo({"name", "kind", "arch", "embedding_dim", "about"});
  Json list = Json::array();
  for (const PriorStatus& st : prepare_priors(s)) {
    const PriorSpec& spec = *std::find_if(s.plan.priors.begin(), s.plan.priors.end(),
                                          [&](const PriorSpec& p) { return p.name == st.name; });
    zoo.add_row({st.name, st.kind, spec.arch, st.dim, st.about});
    list.push_back(Json(Json::Object{{"name", Json(st.name)}, {"kind", Json(st.kind)}, {"embedding_dim", Json(st.dim)},
                                     {"about", Json(st.about)}}));
    ctx.say(fmt::format("prior {:<14} {} in {:5.2f}s  {}", st.name, st.trained ? "trained " : "reloaded", st.seconds, st.about));
  }
  ctx.write_table("zoo.csv", zoo);
  ctx.summary()["priors"] = list;
  ctx.say("priors saved in " + s.plan.priors_dir);
}

void optimize_mode(RunContext& ctx) {
  Setup s = make_setup(ctx);
  prepare_priors(s);
  bool root = false;
  const ParticipantReport rep = participant_phase(ctx, s, &root);
  if (root) report_participants(ctx, rep, s.plan);
}

void train_mode(RunContext& ctx) {
  Setup s = make_setup(ctx);
  if (s.opt.plan.dataset_dir.empty()) throw ConfigError("coopt train needs coopt.dataset_dir (a folder written by coopt optimize)");
  const OptimizedDataset od = read_optimized(s.plan.dataset_dir);
  if (od.images.rows() != s.plan.pool_size)
    throw ConfigError("the optimized dataset holds " + std::to_string(od.images.rows()) + " images but coopt.pool.size is " +
                      std::to_string(s.plan.pool_size) + "; use the config it was written with");
  ctx.say("coopt train: optimized dataset " + s.plan.dataset_dir + " (" + std::to_string(od.images.rows()) + " images)");
  train_and_probe(ctx, s, od);
}

// The command's mode table (core/runtime/command.hpp); a new mode is a file that registers itself.
const bool registered_run = add_command_mode(
    "coopt", {"run", "quick end-to-end demo: priors, participants, optimized targets, one student", run_mode});
const bool registered_priors =
    add_command_mode("coopt", {"priors", "train the configured priors and save them as .prior files", priors_mode});
const bool registered_optimize = add_command_mode(
    "coopt", {"optimize", "participants turn the unlabeled pool into the optimized dataset", optimize_mode});
const bool registered_train = add_command_mode(
    "coopt", {"train", "train a student on an existing optimized dataset (coopt.dataset_dir)", train_mode});

}  // namespace mlsys::dataopt
