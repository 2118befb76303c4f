#include "gnn/command.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <numeric>

#include "core/comm/backend.hpp"
#include "core/comm/comm_options.hpp"
#include "core/log/log.hpp"
#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "core/runtime/run_context.hpp"
#include "core/runtime/run_options.hpp"
#include "core/process/system.hpp"
#include "core/tensor/device_options.hpp"
#include "gnn/graph/loaders.hpp"
#include "gnn/graph/source.hpp"
#include "gnn/options.hpp"
#include "gnn/partition/partitioner.hpp"
#include "gnn/partition/report.hpp"
#include "gnn/report/figures.hpp"
#include "gnn/train/trainer.hpp"

namespace mlsys::gnn {

namespace {

Table epochs_table(const TrainResult& r) {
  Table t({"epoch", "loss", "train_acc", "val_acc", "test_acc", "epoch_s", "compute_s", "quant_s", "comm_s", "wait_s",
           "reduce_s", "raw_bytes", "wire_bytes", "reduce_bytes", "fwd_bits", "bwd_bits", "halo", "eval_loss"});
  for (const auto& e : r.epochs) {
    std::vector<Table::Cell> row;
    row.emplace_back(int64_t{e.epoch});
    row.emplace_back(e.loss);
    for (double v : {e.train_acc, e.val_acc, e.test_acc}) {  // empty when not evaluated this epoch
      if (v < 0) row.emplace_back(std::string());
      else row.emplace_back(v);
    }
    for (double v : {e.epoch_s, e.mean.compute_s, e.mean.quant_s, e.mean.comm_s, e.mean.wait_s, e.mean.reduce_s}) row.emplace_back(v);
    for (uint64_t v : {e.mean.raw_bytes, e.mean.wire_bytes, e.mean.reduce_bytes}) row.emplace_back(static_cast<int64_t>(v));
    row.emplace_back(int64_t{e.fwd_bits});
    row.emplace_back(int64_t{e.bwd_bits});
    row.emplace_back(std::string(e.stale ? "stale" : "fresh"));
    if (e.eval_loss < 0) row.emplace_back(std::string());  // not evaluated this epoch
    else row.emplace_back(e.eval_loss);
    t.add_row(std::move(row));
  }
  return t;
}

Json summarize(const TrainResult& r) {
  Json j = Json::object();
  j["epochs_run"] = static_cast<int64_t>(r.epochs.size());
  j["final_train_acc"] = r.final_train;
  j["final_val_acc"] = r.final_val;
  j["final_test_acc"] = r.final_test;
  j["best_val_acc"] = r.best_val;
  j["test_acc_at_best_val"] = r.test_at_best_val;
  j["final_loss"] = r.epochs.empty() ? 0.0 : r.epochs.back().loss;
  // The evaluation pass's train loss (no dropout): the last one and the lowest, -1 when never evaluated.
  double last_eval = -1, min_eval = -1;
  for (const auto& e : r.epochs)
    if (e.eval_loss >= 0) {
      last_eval = e.eval_loss;
      min_eval = min_eval < 0 ? e.eval_loss : std::min(min_eval, e.eval_loss);
    }
  j["final_eval_loss"] = last_eval;
  j["min_eval_loss"] = min_eval;
  // Epoch 0 is excluded from means: it is synchronous and warms pools and caches.
  EpochStats sum;
  double t = 0;
  int n = 0, stale = 0;
  uint64_t raw = 0, wire = 0, red = 0;
  for (const auto& e : r.epochs) {
    raw += e.mean.raw_bytes;
    wire += e.mean.wire_bytes;
    red += e.mean.reduce_bytes;
    stale += e.stale;
    if (e.epoch == 0 && r.epochs.size() > 1) continue;
    sum.add(e.mean);
    t += e.epoch_s;
    ++n;
  }
  n = std::max(n, 1);
  j["mean_epoch_s"] = t / n;
  Json split = Json::object();
  split["compute_s"] = sum.compute_s / n;
  split["quant_s"] = sum.quant_s / n;
  split["comm_s"] = sum.comm_s / n;
  split["wait_s"] = sum.wait_s / n;
  split["reduce_s"] = sum.reduce_s / n;
  j["mean_time_split"] = split;
  j["stale_epochs"] = stale;
  j["halo_raw_bytes"] = raw;
  j["halo_wire_bytes"] = wire;
  j["halo_compression"] = wire ? double(raw) / double(wire) : 0.0;
  j["allreduce_bytes"] = red;
  j["peak_rss_bytes"] = peak_rss_bytes();
  j["adaptor_switches"] = static_cast<int64_t>(r.switches.size());
  j["interrupted"] = r.interrupted;
  if (!r.checkpoint.empty()) {
    j["checkpoint"] = r.checkpoint;
    j["checkpoint_epoch"] = r.checkpoint_epoch;  // a resume from it starts here
  }
  if (r.failed_checkpoints > 0) j["failed_checkpoints"] = int64_t{r.failed_checkpoints};
  if (!r.last_checkpoint_error.empty()) j["last_checkpoint_error"] = r.last_checkpoint_error;
  return j;
}

// Loads the configured graph and records its shape in the summary (every mode starts here).
Graph load_graph(RunContext& ctx) {
  const GnnOptions& o = ctx.get(gnn_section());
  if (!o.graph.path.empty() && o.graph.source != "file")  // a path given is a path used (never ignored)
    throw ConfigError(fmt::format("gnn.graph.path is set ({}) but gnn.graph.source is {}: use --graph PATH (or "
                                  "gnn.graph.source=file) to train on that graph, or clear gnn.graph.path",
                                  o.graph.path, o.graph.source));
  Graph g = graph_source_registry().create(o.graph.source)->load(o.graph, ctx.seed());
  // The run record (summary.json "run.inputs"): the graph files with their size and content hash,
  // or what generated the graph.
  if (o.graph.source == "file") ctx.record_input("gnn.graph.path", o.graph.path);
  else ctx.record_builtin_input("gnn.graph", "generated by source " + o.graph.source + " (seed " + std::to_string(ctx.seed()) + ")");
  if (!o.resume.empty()) {
    require_input(o.resume, "gnn.resume (--resume)", InputKind::File, "a checkpoint.bin that a train-gnn run wrote");
    ctx.record_input("gnn.resume", o.resume);
  }
  log::info("graph {}: {} nodes, {} directed edges, {} features, {} classes", g.name, g.num_nodes, g.num_edges(),
            g.feature_dim, g.num_classes);
  Json gj = Json::object();
  gj["name"] = g.name;
  gj["nodes"] = g.num_nodes;
  gj["directed_edges"] = g.num_edges();
  gj["features"] = g.feature_dim;
  gj["classes"] = g.num_classes;
  gj["train"] = g.count(Split::Train);
  gj["val"] = g.count(Split::Val);
  gj["test"] = g.count(Split::Test);
  ctx.summary()["graph"] = gj;
  return g;
}

void convert_mode(RunContext& ctx) {
  const GnnOptions& o = ctx.get(gnn_section());
  Graph g = load_graph(ctx);
  {
    std::string out = o.graph.convert_out.empty() ? ctx.path(g.name + ".mlsg").string() : o.graph.convert_out;
    write_binary_graph(g, out);
    ctx.summary()["binary_graph"] = out;
    ctx.say(fmt::format("wrote {} ({} nodes, {} edges); load it with gnn.graph.source=file gnn.graph.path={}", out,
                        g.num_nodes, g.num_edges(), out));
  }
}

// The gnn options of this run, with gnn.parts resolved: under an MPI launcher with a backend whose
// ranks are processes (mpi, nccl), a gnn.parts the user did not set is the launcher's rank count
// (one partition per rank); a gnn.parts that was set is kept (train() refuses a mismatch).
GnnOptions gnn_options(RunContext& ctx) {
  GnnOptions o = ctx.get(gnn_section());
  const bool processes = !comm::backend(ctx.get(comm_section()).backend)->in_process();
  if (processes && launcher_size() > 0 && !ctx.config().origins().count("gnn.parts") && o.parts != launcher_size()) {
    log::info("gnn.parts not set: {} partitions, one per rank of the launcher", launcher_size());
    o.parts = launcher_size();
  }
  return o;
}

// Partitions the graph (through the cache) and writes the partition report when asked.
std::vector<int32_t> partition_and_report(RunContext& ctx, const GnnOptions& o, const Graph& g, bool report) {
  PartitionParams pp;
  pp.parts = o.parts;
  pp.seed = ctx.seed();
  pp.objective = o.metis_objective;
  bool cached = false;
  auto owner = partition_cached(g, o.partitioner, pp, o.partition_cache ? cache_root(o.graph) : "", &cached);
  if (o.parts > 1 && report) {
    const std::vector<HaloPlan> plans = build_halo_plans(g, owner, o.parts);
    ctx.write_table("partitions.csv", partition_table(plans));
    Json pj = partition_summary(plans, o.model.hidden);
    pj["partitioner"] = o.partitioner;
    pj["from_cache"] = cached;
    ctx.summary()["partition"] = pj;
    ctx.say(fmt::format("partition: {} x {} ({}), {} halo rows per layer, edge cut {}", o.parts, o.partitioner,
                        cached ? "cached" : "computed", pj["halo_rows_per_layer"].as_int(), pj["edge_cut"].as_int()));
  }
  return owner;
}

void partition_mode(RunContext& ctx) {
  Graph g = load_graph(ctx);
  partition_and_report(ctx, gnn_options(ctx), g, true);
}

void train_mode(RunContext& ctx) {
  const GnnOptions o = gnn_options(ctx);
  Graph g = load_graph(ctx);
  auto owner = partition_and_report(ctx, o, g, o.report_partitions);
  TraceWriter trace;
  TrainSetup s;
  s.gnn = o;
  s.comm = ctx.get(comm_section());
  s.device = ctx.get(device_section());
  s.seed = ctx.seed();
  s.threads = ctx.threads();
  s.out_dir = ctx.out_dir().string();
  s.trace = o.trace_epochs > 0 ? &trace : nullptr;
  s.progress = ctx.progress_enabled();
  s.inputs_built = [&g] { g.release_features(); };  // the workers hold their own rows
  TrainResult r = train(g, owner, s);

  ctx.write_table("epochs.csv", epochs_table(r));
  const std::string fig = fmt::format("{} on {}", o.model.arch, g.name);  // figures: gnn/report/figures.hpp
  ctx.write_text("curves.svg", curves_svg(r.epochs, fig, ctx.figure_size()));
  ctx.write_text("breakdown.svg",
                 time_breakdown_svg({{run_label(o), mean_time_split(r.epochs)}}, fig + ": time per epoch", ctx.figure_size()));
  if (!r.switches.empty()) {
    Table t({"epoch", "action", "fwd_bits_from", "fwd_bits_to", "bwd_bits_from", "bwd_bits_to", "loss_trend", "threshold",
             "smoothed_loss_from", "smoothed_loss_to"});
    for (const auto& sw : r.switches) {
      std::vector<Table::Cell> row;
      row.emplace_back(int64_t{sw.epoch});
      row.emplace_back(sw.what);
      for (int v : {sw.fwd_from, sw.fwd_to, sw.bwd_from, sw.bwd_to}) row.emplace_back(int64_t{v});
      for (double v : {sw.trend, sw.threshold, sw.smoothed_from, sw.smoothed_to}) row.emplace_back(v);
      t.add_row(std::move(row));
    }
    ctx.write_table("switches.csv", t);
  }
  // Under mpirun each rank traces its own worker; rank 0 keeps the plain name.
  if (s.trace && trace.size())
    trace.write(ctx.path(ctx.primary() ? "trace.json" : fmt::format("trace-rank{}.json", launcher_rank())).string());
  Json sum = summarize(r);
  for (auto& [key, v] : sum.as_object()) ctx.summary()[key] = v;
  ctx.say(fmt::format("{} {}x{} on {} ({} nodes), {} worker(s), fwd/bwd bits {}/{}{}", o.model.arch, o.model.layers, o.model.hidden, g.name,
                      g.num_nodes, o.parts, o.fwd_bits, o.bwd_bits, o.pipeline && o.parts > 1 ? ", pipelined" : ""));
  if (r.final_test >= 0)
    ctx.say(fmt::format("accuracy: train {:.1f}%  val {:.1f}%  test {:.1f}% (best val {:.1f}%, test there {:.1f}%)",
                        100 * r.final_train, 100 * r.final_val, 100 * r.final_test, 100 * r.best_val, 100 * r.test_at_best_val));
  ctx.say(fmt::format("mean epoch {:.2f} ms; halo bytes {} raw -> {} on the wire ({:.1f}x)", 1e3 * sum["mean_epoch_s"].as_number(),
                      format_bytes(sum["halo_raw_bytes"].as_number()), format_bytes(sum["halo_wire_bytes"].as_number()),
                      sum["halo_compression"].as_number()));
  if (!r.last_checkpoint_error.empty()) {
    const int ran = r.epochs.empty() ? 0 : r.epochs.back().epoch + 1;
    ctx.missing_output("checkpoint.bin",
                       fmt::format("the checkpoint after epoch {} of {}: {}{}", ran, o.epochs,
                                   r.last_checkpoint_error,
                                   r.checkpoint.empty() ? std::string("; no checkpoint of this run exists")
                                                        : fmt::format("; {} holds epoch {} only", r.checkpoint, r.checkpoint_epoch)));
  }
  if (r.interrupted && !r.checkpoint.empty())
    ctx.say(fmt::format("interrupted: resume with --resume {} (from epoch {})", r.checkpoint, r.checkpoint_epoch));
}

// The command's mode table (core/runtime/command.hpp); a new mode is a file that registers itself.
const bool registered_train = add_command_mode(
    "train-gnn", {"train", "train the model over gnn.parts workers and report accuracy, time split and bytes", train_mode});
const bool registered_convert = add_command_mode(
    "train-gnn", {"convert", "write the loaded graph as a binary .mlsg file (gnn.graph.convert_out)", convert_mode});
const bool registered_partition = add_command_mode(
    "train-gnn", {"partition", "partition the graph and write the partition report only", partition_mode});

}  // namespace

const CommandSpec& train_gnn_command() {
  static const CommandSpec spec{
      "train-gnn",
      "Sylvie: distributed full-graph GNN training with low-bit halo exchange, pipelining and bounded staleness",
      "Examples:\n"
      "  mlsys train-gnn                                   # quickstart: small SBM, 2 workers, 1-bit, pipelined\n"
      "  mlsys train-gnn configs/train-gnn/cora_gcn.yaml   # Cora (needs MLSYS_DATA_DIR data)\n"
      "  mlsys train-gnn partition --set gnn.parts=8        # partition report only\n"
      "  mlsys train-gnn convert --set gnn.graph.source=file --set gnn.graph.path=DIR  # write .mlsg\n"
      "  mlsys train-gnn --resume results/train-gnn/<run>/checkpoint.bin",
      {&run_section(), &comm_section(), &device_section(), &gnn_section()},
      command_modes("train-gnn"),
      "gnn.mode",
      {{"resume", "gnn.resume", true, "Resume from a checkpoint file"},
       {"graph", "gnn.graph.path", true, "Graph path: text folder, OGB folder, .mlsg or .npz file (sets gnn.graph.source=file)",
        {"gnn.graph.source=file"}},
       {"parts", "gnn.parts", true, "Number of partitions / workers"},
       {"epochs", "gnn.epochs", true, "Training epochs"}},
      {}};
  return spec;
}

}  // namespace mlsys::gnn
