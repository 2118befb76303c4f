#include "gnn/train/trainer.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <chrono>
#include <cmath>
#include <memory>

#include "core/comm/factory.hpp"
#include "core/comm/progress_engine.hpp"
#include "core/comm/tensor_ops.hpp"
#include "core/kernels/kernels.hpp"
#include "core/log/log.hpp"
#include "core/log/progress.hpp"
#include "core/nn/lr_schedule.hpp"
#include "core/nn/optimizer.hpp"
#include "core/quant/codec.hpp"
#include "core/runtime/run_context.hpp"
#include "core/process/system.hpp"
#include "core/util/random.hpp"
#include "gnn/halo/exchanger.hpp"
#include "gnn/halo/halo_plan.hpp"
#include "gnn/model/architecture.hpp"
#include "gnn/model/local_graph.hpp"
#include "gnn/model/model.hpp"
#include "gnn/train/checkpoint.hpp"
#include "gnn/train/evaluate.hpp"
#include "gnn/train/inputs.hpp"

namespace mlsys::gnn {

namespace k = kernels;

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A halo width must name one unbiased codec of the table (quant::unbiased_codec).
void check_bits(int b, const char* key) {
  try {
    quant::unbiased_codec(b);
  } catch (const ConfigError& e) {
    throw ConfigError(fmt::format("gnn.{} = {}: {}", key, b, e.what()));
  }
}

// Starts summing a tensor across ranks in fp32 on the communication thread: in place when the
// communicator takes the tensor's memory, else through a host copy (comm::iall_reduce decides by
// Communicator::accepts). Urgent: the worker waits on it at once, while pipelined halos posted
// before it are needed an epoch later.
comm::Ticket all_reduce_tensor(comm::ProgressEngine& e, DeviceContext& ctx, const Tensor& t) {
  return e.submit({"gradient all_reduce",
                   [t, &ctx](comm::Communicator& c) {
                     ctx.synchronize();  // the backward kernels that wrote t are done
                     return comm::iall_reduce(c, t);
                   },
                   {},
                   comm::kPriorityUrgent});
}

// Multi-label loss: every (node, class) pair is a binary task, and a 2-way softmax over (0, z) is
// the logistic loss of z, so the core cross-entropy kernel serves (mean over the masked pairs).
// select = [[0, 1]] turns the logits column z into rows (0, z) and picks d/dz back out.
float multi_label_loss(DeviceContext& ctx, const Tensor& logits, const Tensor& labels, const Tensor& mask,
                       const Tensor& select, const Tensor& grad) {
  const int64_t pairs = logits.numel();
  Tensor two = Tensor::empty({pairs, 2}, DType::f32, ctx), g2 = Tensor::empty({pairs, 2}, DType::f32, ctx);
  k::gemm(ctx, logits.reshape({pairs, 1}), false, select, false, two);
  const float loss = k::cross_entropy(ctx, two, labels, mask, g2);
  k::gemm(ctx, g2, false, select, true, grad.reshape({pairs, 1}));
  return loss;
}

// Rank 0's parameter values, read by the other workers of the process (TrainSetup::share_model).
struct SharedModel {
  std::vector<Tensor> values;
};

// One rank's part of training: its device, partition, inputs and model replica. Every rank runs
// the same steps in the same order (the collectives pair up); rank 0 keeps the records.
class Worker {
 public:
  Worker(comm::Communicator& c, const Graph& g, const std::vector<int32_t>& owner, const TrainSetup& s, TrainResult& result,
         int threads, SharedModel* shared)
      : c_(c), g_(g), owner_(owner), s_(s), o_(s.gnn), result_(result), threads_(threads), rank_(c.rank()), parts_(c.size()),
        in_process_(comm::backend(s.comm.backend)->in_process()), shared_(shared) {}

  void run() {
    open_device();
    load_partition();
    build_model();
    resume();
    share_model();
    start_progress();
    int epoch = start_;
    for (; epoch < o_.epochs; ++epoch) {
      const Step step = train_epoch(epoch);
      EpochRecord rec = step.rec;
      if ((epoch + 1) % o_.eval_every == 0 || epoch + 1 == o_.epochs || step.stop) evaluate(rec);
      publish(rec);
      if (step.stop) {
        stop_interrupted(epoch);
        ++epoch;
        break;
      }
      if (o_.checkpoint_every > 0 && (epoch + 1) % o_.checkpoint_every == 0 && epoch + 1 < o_.epochs)
        save(epoch + 1, false);  // finish saves the last
    }
    finish(epoch);
  }

 private:
  // What one training step left: the global record, and whether a rank asked to stop (SIGINT).
  struct Step {
    EpochRecord rec;
    bool stop = false;
  };

  // ---- setup ----
  void open_device() {
    omp_set_num_threads(threads_);
    dctx_ = DeviceContext::from_options(s_.device, in_process_ ? 0 : rank_, fmt::format("gnn.rank{}", rank_));
  }

  // The halo plan, local adjacency and inputs of this rank's partition.
  void load_partition() {
    DeviceContext& ctx = *dctx_;
    // The run's fingerprint reads the features: taken before inputs_built may free them.
    if (rank_ == 0 || !o_.resume.empty()) fingerprint_ = run_fingerprint(g_, owner_, o_.model, s_.seed);
    plan_ = build_halo_plan(g_, owner_, parts_, rank_);
    const std::unique_ptr<Architecture> arch = architecture(o_.model.arch);
    lg_ = build_local_graph(ctx, plan_, arch->adjacency());
    // The exchanger needs only the send/receive lists: drop the adjacency copy (`= {}` would keep
    // the capacity: it assigns an empty list).
    plan_.indices = std::vector<int32_t>();
    plan_.indptr = std::vector<int64_t>();
    plan_.degree = std::vector<int32_t>();
    // The only worker in this process: a memory-mapped graph's adjacency is not read again.
    const bool alone = parts_ == 1 || !in_process_;
    if (alone) {
      g_.indices.release_pages();
      g_.indptr.release_pages();
    }
    InputSettings how;
    how.normalize = o_.graph.normalize_features;
    how.precompute = precomputes_first(o_.model);
    how.sparse_ok = arch->sparse_input();
    how.cache_input = o_.halo.cache_input;
    how.alone = alone;
    in_ = build_inputs(c_, ctx, g_, plan_, lg_, how);
    // build_inputs ends in an all-reduce that every rank enters after its features are built, so
    // on rank 0 (or in a process of its own) no worker of this process reads the features again.
    if (s_.inputs_built && (rank_ == 0 || !in_process_)) s_.inputs_built();
  }

  // The model replica, its optimizer (state laid out now), the exchanger and the staleness adaptor.
  void build_model() {
    DeviceContext& ctx = *dctx_;
    model_ = std::make_unique<Model>(ctx, o_.model, static_cast<int>(g_.feature_dim), g_.num_classes, s_.seed);
    if (o_.decay_first_layer_only)
      for (int l = 1; l < o_.model.layers; ++l)
        for (nn::Parameter* p : model_->layer_params(l)) p->decay = false;
    nn::OptimizerOptions oo;
    oo.lr = o_.lr;
    oo.weight_decay = o_.weight_decay;
    opt_ = nn::make_optimizer(o_.optimizer, ctx, model_->params(), oo);
    schedule_ = nn::lr_schedule_registry().create(o_.lr_schedule);
    if (steps()) opt_->allocate_state();
    // From here on every communication of this rank goes through its engine (one thread, in order).
    const int threads = 1;
    engine_ = std::make_unique<comm::ProgressEngine>(c_, [threads] { omp_set_num_threads(threads); });
    ex_ = std::make_unique<Exchanger>(*engine_, ctx, plan_, s_.seed, o_.halo);
    bsa_ = std::make_unique<StalenessAdaptor>(o_.staleness, o_.fwd_bits, o_.bwd_bits, o_.pipeline, parts_ > 1,
                                              o_.halo.fp32_warmup);
    bsa_->set_verbose(rank_ == 0);
  }

  void resume() {
    if (!o_.resume.empty()) {
      Json h = load_checkpoint(o_.resume, *opt_);
      check_fingerprint(fingerprint_, h.find("fingerprint"), o_.resume);
      start_ = static_cast<int>(h["epoch"].as_int());
      // The model is at epoch start_: a shorter run cannot be had from it, and training nothing
      // while reporting success would hide that.
      if (start_ > o_.epochs)
        throw ConfigError(fmt::format("gnn.epochs = {} but the checkpoint {} already holds {} epochs: to train further set "
                                      "gnn.epochs above {} (e.g. --set gnn.epochs={}); to train {} epochs, start without "
                                      "--resume",
                                      o_.epochs, o_.resume, start_, start_, 2 * start_, o_.epochs));
      if (start_ == o_.epochs && rank_ == 0)
        log::warn("train-gnn: the checkpoint {} already holds all {} epochs: nothing to train (raise gnn.epochs to "
                  "train further); the results are the checkpoint's",
                  o_.resume, start_);
      const Json& st = h["adaptor"];
      const Json* ff = st.find("fwd_floor");
      const Json* bf = st.find("bwd_floor");
      bsa_->restore({static_cast<int>(st.find("fwd_bits")->as_int()), static_cast<int>(st.find("bwd_bits")->as_int()),
                     static_cast<int>(st.find("last_fresh")->as_int()), st.find("ema")->as_number(), 0,
                     ff ? static_cast<int>(ff->as_int()) : 0, bf ? static_cast<int>(bf->as_int()) : 0});
      best_val_ = h["best_val"].as_number();
      test_at_best_ = h["test_at_best_val"].as_number();
      if (rank_ == 0) {
        for (const Json& r : h["records"].as_array()) result_.epochs.push_back(record_from(r));
        log::info("train-gnn: resumed from {} at epoch {}", o_.resume, start_);
      }
    }
    if (rank_ == 0) result_.start_epoch = start_;
  }

  // With a shared model, the workers other than rank 0 read rank 0's parameter values and keep no
  // optimizer state: their own values (equal to rank 0's: same seed, same checkpoint) and any state
  // a resume loaded go. Every rank still computes and all-reduces its own gradient, so the summed
  // gradient rank 0 steps with is the one every replica would step with: the run is bit-identical
  // to one replica per worker.
  void share_model() {
    if (!shared_) return;
    const std::vector<nn::Parameter*> params = model_->params();
    if (rank_ == 0)
      for (nn::Parameter* p : params) shared_->values.push_back(p->value);
    engine_->call("share model", [](comm::Communicator& c) { c.barrier(); });  // rank 0's values are published
    if (rank_ == 0) return;
    for (size_t i = 0; i < params.size(); ++i) params[i]->value = shared_->values.at(i);
    nn::OptimizerOptions oo = opt_->options();
    opt_ = nn::make_optimizer(o_.optimizer, *dctx_, params, oo);
    // The freed values' size classes may never be asked for again: give them back now.
    dctx_->pool().release_cached();
  }

  // Whether this rank runs the optimizer: every rank, or rank 0 alone when the model is shared.
  bool steps() const { return !shared_ || rank_ == 0; }

  void start_progress() {
    if (rank_ == 0 && s_.progress) bar_ = std::make_unique<Progress>("train-gnn", static_cast<uint64_t>(o_.epochs), "epochs");
    t0_us_ = now_s() * 1e6;
    if (s_.trace) {
      s_.trace->name_track(rank_, 0, fmt::format("worker {}", rank_), "compute");
      s_.trace->name_track(rank_, 1, fmt::format("worker {}", rank_), "waits");
      s_.trace->name_track(rank_, 2, fmt::format("worker {}", rank_), "comm thread");
    }
  }

  // ---- one epoch ----
  // Forward, loss, backward, gradient all-reduce and optimizer step, then the global record.
  Step train_epoch(int epoch) {
    DeviceContext& ctx = *dctx_;
    const bool tracing = s_.trace && epoch - start_ < o_.trace_epochs;
    ex_->set_trace(tracing ? s_.trace : nullptr, t0_us_);
    auto span = [&](const char* name, double t_begin) {
      if (tracing) s_.trace->span(rank_, 0, name, t_begin * 1e6 - t0_us_, (now_s() - t_begin) * 1e6, "compute");
    };
    const EpochPlan ep = bsa_->plan(epoch);
    EpochStats st;
    const comm::CommStats before = c_.stats();
    const double t_start = now_s();
    ex_->begin_epoch(epoch, ep.stale, ep.fwd_bits, ep.bwd_bits, &st);
    model_->drop_grads();
    ForwardEnv env{ctx, *ex_, lg_, true, false, derive_seed(s_.seed, 0xd20u, static_cast<uint64_t>(epoch)), sparse_x(),
                   in_.local_input};
    double t = now_s();
    Tensor logits = model_->forward(env, in_.x);
    span("forward", t);
    t = now_s();
    Tensor grad = Tensor::empty(logits.shape(), DType::f32, ctx);
    const float loss_local = in_.multi ? multi_label_loss(ctx, logits, in_.pair_labels, in_.pair_train, in_.pair_select, grad)
                                       : k::cross_entropy(ctx, logits, in_.labels, in_.mask_t[0], grad);
    // The kernel averages over this worker's train rows; rescale to the global mean.
    const float w = static_cast<float>(in_.local[0]) / static_cast<float>(in_.total[0]);
    k::scale(ctx, grad, w, grad);
    model_->backward(env, grad);
    logits = grad = Tensor();  // back to the pool before the all-reduce and any evaluation pass
    span("backward", t);
    t = now_s();
    const std::vector<nn::Parameter*>& params = opt_->params();
    if (parts_ > 1) {
      std::vector<comm::Ticket> reduce;
      for (nn::Parameter* p : params) reduce.push_back(all_reduce_tensor(*engine_, ctx, p->grad));
      for (comm::Ticket& r : reduce) r.wait();
    }
    st.reduce_s = now_s() - t;
    if (parts_ > 1)
      for (nn::Parameter* p : params) st.reduce_bytes += static_cast<uint64_t>(p->grad.numel()) * 4;
    span("allreduce", t);
    t = now_s();
    // A shared model: rank 0 steps it, and the epoch record's all-reduce below, which rank 0 enters
    // after its step, holds the other workers until the values are updated.
    if (steps()) {
      opt_->options().lr = o_.lr * schedule_->factor(epoch, o_.epochs);
      opt_->step();
    }
    ctx.synchronize();
    model_->drop_grads();  // backward creates them again, layer by layer
    span("adam", t);
    const double epoch_s = now_s() - t_start;
    // Encoding and decoding run on the communication thread (quant_s overlaps); the worker's own
    // time is everything it was not blocked.
    st.compute_s = std::max(0.0, epoch_s - st.wait_s - st.reduce_s);
    const double modeled = c_.stats().modeled_seconds - before.modeled_seconds;
    st.comm_s = s_.comm.link_model ? modeled : st.quant_s + st.wait_s;
    Step step = global_record(epoch, ep, st, double(loss_local) * w, epoch_s);
    bsa_->observe(epoch, step.rec.loss);
    return step;
  }

  // Sums this worker's loss share and time split over the ranks (the slowest epoch time, and
  // whether any rank was interrupted).
  Step global_record(int epoch, const EpochPlan& ep, const EpochStats& st, double loss_share, double epoch_s) {
    Step step;
    EpochRecord& rec = step.rec;
    rec.epoch = epoch;
    rec.stale = ep.stale;
    rec.fwd_bits = ep.fwd_bits;
    rec.bwd_bits = ep.bwd_bits;
    double sums[10] = {loss_share, st.compute_s, st.quant_s, st.comm_s, st.wait_s, st.reduce_s,
                       double(st.raw_bytes), double(st.wire_bytes), double(st.reduce_bytes), 0};
    double maxes[2] = {epoch_s, RunContext::stop_requested() ? 1.0 : 0.0};
    if (parts_ > 1)
      engine_->call("epoch record", [&](comm::Communicator& c) {
        comm::all_reduce_host(c, *dctx_, sums, 10, DType::f64);
        comm::all_reduce_host(c, *dctx_, maxes, 2, DType::f64, comm::ReduceOp::max);
      });
    rec.loss = sums[0];
    rec.mean.compute_s = sums[1] / parts_;
    rec.mean.quant_s = sums[2] / parts_;
    rec.mean.comm_s = sums[3] / parts_;
    rec.mean.wait_s = sums[4] / parts_;
    rec.mean.reduce_s = sums[5] / parts_;
    rec.mean.raw_bytes = static_cast<uint64_t>(sums[6]);
    rec.mean.wire_bytes = static_cast<uint64_t>(sums[7]);
    rec.mean.reduce_bytes = static_cast<uint64_t>(sums[8]);
    rec.epoch_s = maxes[0];
    step.stop = maxes[1] > 0;
    if (!std::isfinite(rec.loss)) throw Error(fmt::format("training diverged at epoch {} (loss {}); lower gnn.optim.lr", epoch, rec.loss));
    return step;
  }

  // ---- evaluation ----
  // An exact (fp32, synchronous) forward pass; scores go into rec, the best validation score is kept.
  void evaluate(EpochRecord& rec) {
    model_->clear();
    ForwardEnv ev{*dctx_, *ex_, lg_, false, true, 0, sparse_x(), in_.local_input};
    Tensor out = model_->forward(ev, in_.x);
    // The same loss the training step computes, on the same rows, without dropout or stale halos.
    Tensor scratch = Tensor::empty(out.shape(), DType::f32, *dctx_);
    const float loss_local = in_.multi ? multi_label_loss(*dctx_, out, in_.pair_labels, in_.pair_train, in_.pair_select, scratch)
                                       : k::cross_entropy(*dctx_, out, in_.labels, in_.mask_t[0], scratch);
    double loss = double(loss_local) * static_cast<double>(in_.local[0]) / static_cast<double>(in_.total[0]);
    std::array<double, 3> score{};
    engine_->call("evaluation scores", [&](comm::Communicator& c) {
      score = split_scores(c, *dctx_, g_, plan_, in_, out);
      if (parts_ > 1) comm::all_reduce_host(c, *dctx_, &loss, 1, DType::f64);
    });
    rec.eval_loss = loss;
    rec.train_acc = score[0];
    rec.val_acc = score[1];
    rec.test_acc = score[2];
    if (rec.val_acc > best_val_) {
      best_val_ = rec.val_acc;
      test_at_best_ = rec.test_acc;
    }
  }

  void publish(const EpochRecord& rec) {
    if (rank_ != 0) return;
    result_.epochs.push_back(rec);
    if (bar_)
      bar_->update(static_cast<uint64_t>(rec.epoch + 1),
                   rec.val_acc >= 0 ? fmt::format("loss {:.4f} val {:.1f}% test {:.1f}%", rec.loss, 100 * rec.val_acc, 100 * rec.test_acc)
                                    : fmt::format("loss {:.4f}", rec.loss));
    if (s_.on_epoch) s_.on_epoch(rec);
  }

  // ---- checkpoint ----
  // Rank 0 writes out_dir/checkpoint.bin: resuming starts at `next_epoch`. `last`: the run's final
  // checkpoint (at its end or at a stop), without which the run is incomplete.
  void save(int next_epoch, bool last) {
    if (rank_ != 0 || s_.out_dir.empty()) return;
    Json h = Json::object();
    h["epoch"] = next_epoch;
    h["seed"] = s_.seed;
    h["arch"] = o_.model.arch;
    h["fingerprint"] = fingerprint_;
    auto st = bsa_->state();
    Json a = Json::object();
    a["fwd_bits"] = st.fwd_bits;
    a["bwd_bits"] = st.bwd_bits;
    a["last_fresh"] = st.last_fresh;
    a["ema"] = st.ema;
    a["fwd_floor"] = st.fwd_floor;
    a["bwd_floor"] = st.bwd_floor;
    h["adaptor"] = a;
    h["best_val"] = best_val_;
    h["test_at_best_val"] = test_at_best_;
    Json recs = Json::array();
    for (const auto& r : result_.epochs) recs.push_back(record_json(r));
    h["records"] = recs;
    std::string path = s_.out_dir + "/checkpoint.bin";
    try {
      save_checkpoint(path, h, *opt_);
      result_.checkpoint = path;
      result_.checkpoint_epoch = next_epoch;
    } catch (const std::exception& e) {
      // Disk full, folder gone: losing a checkpoint must not lose the training run with it, but a
      // lost last one makes the run incomplete (train-gnn's command reports it and exits 1).
      ++result_.failed_checkpoints;
      if (last)
        result_.last_checkpoint_error = e.what();
      else
        log::warn("train-gnn: checkpoint after epoch {} not written ({}); training goes on", next_epoch - 1, e.what());
    }
  }

  void stop_interrupted(int epoch) {
    ex_->drain();
    save(epoch + 1, true);
    if (rank_ == 0) {
      result_.interrupted = true;
      if (result_.last_checkpoint_error.empty()) log::warn("train-gnn: interrupted; checkpoint written after epoch {}", epoch);
    }
  }

  // ---- result ----
  // `epoch`: the first epoch not run. The last checkpoint, then rank 0's summary of the run.
  void finish(int epoch) {
    ex_->drain();
    ex_.reset();
    engine_.reset();  // the communicator is this thread's again
    if (!result_.interrupted && epoch == o_.epochs) save(epoch, true);
    if (bar_) bar_->finish();
    if (rank_ != 0) return;
    result_.switches = bsa_->switches();
    result_.best_val = best_val_;
    result_.test_at_best_val = test_at_best_;
    for (auto it = result_.epochs.rbegin(); it != result_.epochs.rend(); ++it)
      if (it->val_acc >= 0) {
        result_.final_train = it->train_acc;
        result_.final_val = it->val_acc;
        result_.final_test = it->test_acc;
        break;
      }
  }

  const Csr* sparse_x() const { return in_.x_sparse.rows ? &in_.x_sparse : nullptr; }

  comm::Communicator& c_;
  const Graph& g_;
  const std::vector<int32_t>& owner_;
  const TrainSetup& s_;
  const GnnOptions& o_;
  TrainResult& result_;
  const int threads_, rank_, parts_;
  const bool in_process_;  // the ranks are threads of this process
  SharedModel* const shared_;  // non-null: the workers of this process share rank 0's parameters

  std::unique_ptr<DeviceContext> dctx_;
  HaloPlan plan_;
  LocalGraph lg_;
  WorkerInputs in_;
  std::unique_ptr<Model> model_;
  std::unique_ptr<nn::Optimizer> opt_;
  std::unique_ptr<nn::LrSchedule> schedule_;  // gnn.optim.schedule: the rate of each epoch
  std::unique_ptr<comm::ProgressEngine> engine_;
  std::unique_ptr<Exchanger> ex_;
  std::unique_ptr<StalenessAdaptor> bsa_;
  std::unique_ptr<Progress> bar_;
  int start_ = 0;
  double best_val_ = -1, test_at_best_ = -1;
  Json fingerprint_;  // what a checkpoint of this run is checked against on resume
  double t0_us_ = 0;
};

}  // namespace

TrainResult train(const Graph& g, const std::vector<int32_t>& owner, const TrainSetup& s) {
  const GnnOptions& o = s.gnn;
  check_bits(o.fwd_bits, "fwd_bits");
  check_bits(o.bwd_bits, "bwd_bits");
  if (o.staleness.fresh_bits > 0) check_bits(o.staleness.fresh_bits, "staleness.fresh_bits");
  if (!g.has_features())
    throw InputError("graph '" + g.name + "' has no node features; training needs them (pubmed in ../shared has none: use it with gnn.mode=partition)");
  if (o.model.precompute_first && !precomputes_first(o.model))
    log::warn("gnn.model.precompute_first does not apply to {} (its first layer cannot be precomputed); ignored", o.model.arch);
  if (owner.size() != static_cast<size_t>(g.num_nodes)) throw Error("partition assignment does not match the graph's node count");
  for (int32_t p : owner)
    if (p < 0 || p >= o.parts) throw Error(fmt::format("partition assignment names part {} but gnn.parts = {}", p, o.parts));
  CommOptions co = s.comm;
  const bool threads = comm::backend(co.backend)->in_process();  // ranks are threads: one per partition
  if (threads) co.world_size = o.parts;
  const int ranks_here = threads ? o.parts : 1;
  const int per_worker = std::max(1, s.threads / ranks_here);
  const int saved = thread_count();
  if (ranks_here > 1) set_thread_count(per_worker);
  TrainResult result;
  // In-process workers all run on device 0 (Worker::open_device): one copy of the model serves them.
  const bool share = s.share_model && threads && o.parts > 1;
  SharedModel shared;
  try {
    comm::run_ranks(co, [&](comm::Communicator& c) {
      if (c.size() != o.parts)
        throw ConfigError(fmt::format("gnn.parts = {} but the communicator has {} ranks (mpirun -np must equal gnn.parts)", o.parts, c.size()));
      Worker(c, g, owner, s, result, per_worker, share ? &shared : nullptr).run();
    });
  } catch (...) {
    if (ranks_here > 1) set_thread_count(saved);
    throw;
  }
  if (ranks_here > 1) set_thread_count(saved);
  return result;
}

}  // namespace mlsys::gnn
