#include "gnn/train/trainer.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <chrono>
#include <cmath>
#include <mutex>

#include "core/comm/factory.hpp"
#include "core/kernels/kernels.hpp"
#include "core/log/log.hpp"
#include "core/log/progress.hpp"
#include "core/quant/codec.hpp"
#include "core/runtime/run_context.hpp"
#include "core/runtime/system.hpp"
#include "gnn/halo/halo_plan.hpp"
#include "gnn/graph/random.hpp"
#include "gnn/model/local_graph.hpp"
#include "gnn/model/model.hpp"
#include "gnn/train/checkpoint.hpp"
#include "gnn/halo/exchanger.hpp"

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

// Sums (or maxes) a tensor across ranks in fp32, staging through the host when the backend wants it.
void all_reduce_tensor(comm::Communicator& c, const Tensor& t) {
  if (t.device().is_cpu() || c.memory() == comm::Memory::cuda) {
    c.all_reduce(t.raw(), static_cast<size_t>(t.numel()), DType::f32);
    return;
  }
  Tensor h = t.to(cpu_context());
  c.all_reduce(h.raw(), static_cast<size_t>(h.numel()), DType::f32);
  t.copy_from(h);
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

Json record_json(const EpochRecord& r) {
  Json a = Json::array();
  for (double v : {double(r.epoch), r.loss, r.train_acc, r.val_acc, r.test_acc, r.epoch_s, r.mean.compute_s, r.mean.quant_s,
                   r.mean.comm_s, r.mean.wait_s, r.mean.reduce_s, double(r.mean.raw_bytes), double(r.mean.wire_bytes),
                   double(r.mean.reduce_bytes), double(r.fwd_bits), double(r.bwd_bits), r.stale ? 1.0 : 0.0})
    a.push_back(v);
  return a;
}
EpochRecord record_from(const Json& j) {
  const auto& a = j.as_array();
  EpochRecord r;
  auto d = [&](size_t i) { return a.at(i).as_number(); };
  r.epoch = static_cast<int>(d(0));
  r.loss = d(1);
  r.train_acc = d(2);
  r.val_acc = d(3);
  r.test_acc = d(4);
  r.epoch_s = d(5);
  r.mean.compute_s = d(6);
  r.mean.quant_s = d(7);
  r.mean.comm_s = d(8);
  r.mean.wait_s = d(9);
  r.mean.reduce_s = d(10);
  r.mean.raw_bytes = static_cast<uint64_t>(d(11));
  r.mean.wire_bytes = static_cast<uint64_t>(d(12));
  r.mean.reduce_bytes = static_cast<uint64_t>(d(13));
  r.fwd_bits = static_cast<int>(d(14));
  r.bwd_bits = static_cast<int>(d(15));
  r.stale = d(16) != 0;
  return r;
}

struct Worker {
  comm::Communicator& c;
  const Graph& g;
  const std::vector<int32_t>& owner;
  const TrainSetup& s;
  TrainResult& result;
  int threads;

  void run() {
    const GnnOptions& o = s.gnn;
    const int rank = c.rank(), parts = c.size();
    omp_set_num_threads(threads);
    std::unique_ptr<DeviceContext> dctx;
    if (s.device.type == "cpu")
      dctx = std::make_unique<DeviceContext>(Device::cpu(), static_cast<uint64_t>(s.device.host_pool_limit_mb * 1048576.0),
                                             fmt::format("gnn.rank{}", rank));
    else
      dctx = DeviceContext::from_options(s.device, s.comm.backend == "inproc" ? 0 : rank);
    DeviceContext& ctx = *dctx;

    HaloPlan plan = build_halo_plan(g, owner, parts, rank);
    const std::unique_ptr<Architecture> arch = architecture(o.model.arch);
    const LocalGraph lg = build_local_graph(ctx, plan, arch->adjacency());
    // The exchanger needs only the send/receive lists: drop the adjacency copy.
    plan.indices = {};
    plan.indptr = {};
    plan.degree = {};
    // The only worker in this process: a memory-mapped graph's adjacency is not read again.
    const bool alone = parts == 1 || s.comm.backend != "inproc";
    if (alone) {
      g.indices.release_pages();
      g.indptr.release_pages();
    }
    const int64_t own = plan.num_owned(), f = g.feature_dim;

    // Inputs of the owned rows (and, for a precomputed first layer, A_hat X over owned + halo).
    auto gather_features = [&](const std::vector<int32_t>& ids, Tensor& dst, int64_t offset) {
      float* d = dst.data<float>();
#pragma omp parallel for schedule(static)
      for (int64_t i = 0; i < static_cast<int64_t>(ids.size()); ++i) {
        const float* src = g.features.data() + static_cast<int64_t>(ids[i]) * f;
        float* dst = d + (offset + i) * f;
        std::copy(src, src + f, dst);
        if (o.graph.normalize_features) {
          double l1 = 0;
          for (int64_t c = 0; c < f; ++c) l1 += std::abs(src[c]);
          if (l1 > 0)
            for (int64_t c = 0; c < f; ++c) dst[c] = static_cast<float>(dst[c] / l1);
        }
      }
    };
    const bool precompute = precomputes_first(o.model);
    // One worker on the host reads the (possibly memory-mapped) feature matrix in place.
    const bool in_place = parts == 1 && !o.graph.normalize_features && ctx.device().is_cpu();
    Tensor x;
    if (precompute) {
      Tensor ext;
      if (in_place) {
        ext = Tensor::wrap(const_cast<float*>(g.features.data()), {own, f}, DType::f32);
      } else {
        ext = Tensor::empty({plan.num_local(), f});
        gather_features(plan.owned, ext, 0);
        gather_features(plan.halo, ext, own);
      }
      x = Tensor::empty({own, f}, DType::f32, ctx);
      k::spmm(ctx, lg.adj, ext.to(ctx), x);
      ext = Tensor();
      if (alone) g.features.release_pages();  // only A_hat X is read from now on
    } else if (in_place) {
      x = Tensor::wrap(const_cast<float*>(g.features.data()), {own, f}, DType::f32);
    } else {
      Tensor h = Tensor::empty({own, f});
      gather_features(plan.owned, h, 0);
      x = h.to(ctx);
      if (alone) g.features.release_pages();
    }
    // Mostly-zero raw features (bag of words) stay sparse: layer 0 then costs O(nnz), not O(N F).
    Csr x_sparse;
    if (!precompute && ctx.device().is_cpu() && arch->sparse_input() && own > 0) {
      const float* xp = x.data<float>();
      int64_t nnz = 0;
      for (int64_t i = 0; i < own * f; ++i) nnz += xp[i] != 0.0f;
      if (nnz < own * f / 10) {
        std::vector<int64_t> rp(static_cast<size_t>(own) + 1, 0);
        std::vector<int32_t> col;
        std::vector<float> val;
        col.reserve(static_cast<size_t>(nnz));
        val.reserve(static_cast<size_t>(nnz));
        for (int64_t i = 0; i < own; ++i) {
          for (int64_t c = 0; c < f; ++c)
            if (xp[i * f + c] != 0.0f) {
              col.push_back(static_cast<int32_t>(c));
              val.push_back(xp[i * f + c]);
            }
          rp[i + 1] = static_cast<int64_t>(col.size());
        }
        x_sparse = Csr::from_arrays(own, f, std::move(rp), std::move(col), std::move(val)).with_transpose();
        x = Tensor();
      }
    }
    std::vector<int32_t> y(static_cast<size_t>(own));
    std::vector<uint8_t> masks[3];
    int64_t local_count[3] = {0, 0, 0};
    for (auto& m : masks) m.assign(static_cast<size_t>(own), 0);
    for (int64_t i = 0; i < own; ++i) {
      const int32_t v = plan.owned[i];
      y[i] = g.labels[v];
      const uint8_t sp = g.split[v];
      if (sp >= 1 && sp <= 3 && y[i] >= 0) {
        masks[sp - 1][i] = 1;
        ++local_count[sp - 1];
      }
    }
    Tensor labels = Tensor::from_vector(y).to(ctx);
    // Multi-label graphs: one 0/1 label and one train-mask entry per (owned node, class) pair.
    const bool multi = g.multi_label();
    const int64_t classes = g.num_classes;
    Tensor pair_labels, pair_train, pair_select;
    if (multi) {
      std::vector<int32_t> yl(static_cast<size_t>(own * classes));
      std::vector<uint8_t> tm(yl.size());
      for (int64_t i = 0; i < own; ++i)
        for (int64_t cl = 0; cl < classes; ++cl) {
          yl[i * classes + cl] = g.multi_labels[static_cast<int64_t>(plan.owned[i]) * classes + cl];
          tm[i * classes + cl] = masks[0][i];
        }
      pair_labels = Tensor::from_vector(yl).to(ctx);
      pair_train = Tensor::from_vector(tm).to(ctx);
      pair_select = Tensor::from_vector(std::vector<float>{0.0f, 1.0f}, {1, 2}).to(ctx);
    }
    Tensor mask_t[3];
    for (int i = 0; i < 3; ++i) mask_t[i] = Tensor::from_vector(masks[i]).to(ctx);
    int64_t total[3];
    for (int i = 0; i < 3; ++i) total[i] = c.all_reduce_value<int64_t>(local_count[i]);
    if (total[0] == 0) throw InputError("the graph has no labeled training nodes");

    Model model(ctx, o.model, static_cast<int>(f), g.num_classes, s.seed);
    const std::vector<Param*> params = model.params();
    Exchanger ex(c, ctx, plan, s.seed);

    StalenessAdaptor bsa(o.staleness, o.fwd_bits, o.bwd_bits, o.pipeline, parts > 1);
    bsa.set_verbose(rank == 0);

    int start = 0;
    double best_val = -1, test_at_best = -1;
    if (!o.resume.empty()) {
      Json h = load_checkpoint(o.resume, params);
      start = static_cast<int>(h["epoch"].as_int());
      const Json& st = h["adaptor"];
      bsa.restore({static_cast<int>(st.find("fwd_bits")->as_int()), static_cast<int>(st.find("bwd_bits")->as_int()),
                   static_cast<int>(st.find("last_fresh")->as_int()), st.find("ema")->as_number(), 0});
      best_val = h["best_val"].as_number();
      test_at_best = h["test_at_best_val"].as_number();
      if (rank == 0) {
        for (const Json& r : h["records"].as_array()) result.epochs.push_back(record_from(r));
        log::info("train-gnn: resumed from {} at epoch {}", o.resume, start);
      }
    }
    if (rank == 0) result.start_epoch = start;

    std::unique_ptr<Progress> bar;
    if (rank == 0 && s.progress) bar = std::make_unique<Progress>("train-gnn", static_cast<uint64_t>(o.epochs), "epochs");
    const double t0_us = now_s() * 1e6;
    if (s.trace) {
      s.trace->name_track(rank, 0, fmt::format("worker {}", rank), "compute");
      s.trace->name_track(rank, 1, fmt::format("worker {}", rank), "comm");
    }
    auto save = [&](int next_epoch) {
      if (rank != 0 || s.out_dir.empty()) return;
      Json h = Json::object();
      h["epoch"] = next_epoch;
      h["seed"] = s.seed;
      h["arch"] = o.model.arch;
      auto st = bsa.state();
      Json a = Json::object();
      a["fwd_bits"] = st.fwd_bits;
      a["bwd_bits"] = st.bwd_bits;
      a["last_fresh"] = st.last_fresh;
      a["ema"] = st.ema;
      h["adaptor"] = a;
      h["best_val"] = best_val;
      h["test_at_best_val"] = test_at_best;
      Json recs = Json::array();
      for (const auto& r : result.epochs) recs.push_back(record_json(r));
      h["records"] = recs;
      std::string path = s.out_dir + "/checkpoint.bin";
      save_checkpoint(path, h, params);
      result.checkpoint = path;
    };

    const comm::CommStats base0 = c.stats();
    (void)base0;
    int epoch = start;
    for (; epoch < o.epochs; ++epoch) {
      const bool tracing = s.trace && epoch - start < o.trace_epochs;
      ex.set_trace(tracing ? s.trace : nullptr, t0_us);
      auto span = [&](const char* name, double t_begin) {
        if (tracing) s.trace->span(rank, 0, name, t_begin * 1e6 - t0_us, (now_s() - t_begin) * 1e6, "compute");
      };
      EpochPlan ep = bsa.plan(epoch);
      EpochStats st;
      const comm::CommStats before = c.stats();
      const double t_start = now_s();
      ex.begin_epoch(epoch, ep.stale, ep.fwd_bits, ep.bwd_bits, &st);
      model.zero_grad(ctx);
      ForwardEnv env{ctx, ex, lg, true, false, hash_key(s.seed, 0xd20u, static_cast<uint64_t>(epoch)),
                     x_sparse.rows ? &x_sparse : nullptr};
      double t = now_s();
      Tensor logits = model.forward(env, x);
      span("forward", t);
      t = now_s();
      Tensor grad = Tensor::empty(logits.shape(), DType::f32, ctx);
      float loss_local = multi ? multi_label_loss(ctx, logits, pair_labels, pair_train, pair_select, grad)
                               : k::cross_entropy(ctx, logits, labels, mask_t[0], grad);
      // The kernel averages over this worker's train rows; rescale to the global mean.
      const float w = static_cast<float>(local_count[0]) / static_cast<float>(total[0]);
      k::scale(ctx, grad, w, grad);
      model.backward(env, grad);
      logits = grad = Tensor();  // back to the pool before the all-reduce and any evaluation pass
      span("backward", t);
      t = now_s();
      if (parts > 1)
        for (Param* p : params) all_reduce_tensor(c, p->grad);
      st.reduce_s = now_s() - t;
      if (parts > 1)
        for (Param* p : params) st.reduce_bytes += static_cast<uint64_t>(p->grad.numel()) * 4;
      span("allreduce", t);
      t = now_s();
      k::AdamParams ap;
      ap.lr = static_cast<float>(o.lr);
      ap.step = epoch + 1;
      ap.decoupled = o.optimizer == "adamw";
      for (Param* p : params) {
        ap.weight_decay = p->decay && (!o.decay_first_layer_only || p->layer == 0) ? static_cast<float>(o.weight_decay) : 0.0f;
        k::adam_step(ctx, p->value, p->grad, p->m, p->v, ap);
      }
      ctx.synchronize();
      span("adam", t);
      const double epoch_s = now_s() - t_start;
      st.compute_s = std::max(0.0, epoch_s - st.quant_s - st.wait_s - st.reduce_s);
      const comm::CommStats after = c.stats();
      const double modeled = after.modeled_seconds - before.modeled_seconds;
      st.comm_s = s.comm.link_model ? modeled : st.quant_s + st.wait_s;

      EpochRecord rec;
      rec.epoch = epoch;
      rec.stale = ep.stale;
      rec.fwd_bits = ep.fwd_bits;
      rec.bwd_bits = ep.bwd_bits;
      double sums[10] = {double(loss_local) * w, st.compute_s, st.quant_s, st.comm_s, st.wait_s, st.reduce_s,
                         double(st.raw_bytes), double(st.wire_bytes), double(st.reduce_bytes), 0};
      double maxes[2] = {epoch_s, RunContext::stop_requested() ? 1.0 : 0.0};
      if (parts > 1) {
        c.all_reduce(sums, 10, DType::f64);
        c.all_reduce(maxes, 2, DType::f64, comm::ReduceOp::max);
      }
      rec.loss = sums[0];
      rec.mean.compute_s = sums[1] / parts;
      rec.mean.quant_s = sums[2] / parts;
      rec.mean.comm_s = sums[3] / parts;
      rec.mean.wait_s = sums[4] / parts;
      rec.mean.reduce_s = sums[5] / parts;
      rec.mean.raw_bytes = static_cast<uint64_t>(sums[6]);
      rec.mean.wire_bytes = static_cast<uint64_t>(sums[7]);
      rec.mean.reduce_bytes = static_cast<uint64_t>(sums[8]);
      rec.epoch_s = maxes[0];
      if (!std::isfinite(rec.loss)) throw Error(fmt::format("training diverged at epoch {} (loss {}); lower gnn.optim.lr", epoch, rec.loss));
      bsa.observe(epoch, rec.loss);

      const bool last = epoch + 1 == o.epochs;
      if ((epoch + 1) % o.eval_every == 0 || last || maxes[1] > 0) {
        model.clear();
        ForwardEnv ev{ctx, ex, lg, false, true, 0, x_sparse.rows ? &x_sparse : nullptr};
        Tensor out = model.forward(ev, x);
        double* acc[3] = {&rec.train_acc, &rec.val_acc, &rec.test_acc};
        if (multi) {
          // F1-micro over the (node, class) pairs of each split, predicting the class when z > 0:
          // per split true positives, false positives, false negatives.
          int64_t counts[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
          Tensor z = out.to(cpu_context());
          for (int64_t i = 0; i < own; ++i)
            for (int sp = 0; sp < 3; ++sp) {
              if (!masks[sp][i]) continue;
              for (int64_t cl = 0; cl < classes; ++cl) {
                const bool pred = z.data<float>()[i * classes + cl] > 0.0f;
                const bool truth = g.multi_labels[static_cast<int64_t>(plan.owned[i]) * classes + cl] != 0;
                counts[3 * sp] += pred && truth;
                counts[3 * sp + 1] += pred && !truth;
                counts[3 * sp + 2] += !pred && truth;
              }
            }
          if (parts > 1) c.all_reduce(counts, 9, DType::i64);
          for (int i = 0; i < 3; ++i) {
            const int64_t denom = 2 * counts[3 * i] + counts[3 * i + 1] + counts[3 * i + 2];
            *acc[i] = !total[i] ? -1 : denom ? double(2 * counts[3 * i]) / double(denom) : 1.0;
          }
        } else {
          int64_t correct[3];
          for (int i = 0; i < 3; ++i) correct[i] = k::count_correct(ctx, out, labels, mask_t[i]);
          if (parts > 1) c.all_reduce(correct, 3, DType::i64);
          for (int i = 0; i < 3; ++i) *acc[i] = total[i] ? double(correct[i]) / double(total[i]) : -1;
        }
        if (rec.val_acc > best_val) {
          best_val = rec.val_acc;
          test_at_best = rec.test_acc;
        }
      }
      if (rank == 0) {
        result.epochs.push_back(rec);
        if (bar)
          bar->update(static_cast<uint64_t>(epoch + 1),
                      rec.val_acc >= 0 ? fmt::format("loss {:.4f} val {:.1f}% test {:.1f}%", rec.loss, 100 * rec.val_acc, 100 * rec.test_acc)
                                       : fmt::format("loss {:.4f}", rec.loss));
        if (s.on_epoch) s.on_epoch(rec);
      }
      if (maxes[1] > 0) {
        ex.drain();
        save(epoch + 1);
        if (rank == 0) {
          result.interrupted = true;
          log::warn("train-gnn: interrupted; checkpoint written after epoch {}", epoch);
        }
        ++epoch;
        break;
      }
      if (o.checkpoint_every > 0 && (epoch + 1) % o.checkpoint_every == 0) save(epoch + 1);
    }
    ex.drain();
    if (!result.interrupted && epoch == o.epochs) save(epoch);
    if (bar) bar->finish();
    if (rank == 0) {
      result.switches = bsa.switches();
      result.best_val = best_val;
      result.test_at_best_val = test_at_best;
      for (auto it = result.epochs.rbegin(); it != result.epochs.rend(); ++it)
        if (it->val_acc >= 0) {
          result.final_train = it->train_acc;
          result.final_val = it->val_acc;
          result.final_test = it->test_acc;
          break;
        }
    }
  }
};

}  // namespace

TrainResult train(const Graph& g, const std::vector<int32_t>& owner, const TrainSetup& s) {
  const GnnOptions& o = s.gnn;
  check_bits(o.fwd_bits, "fwd_bits");
  check_bits(o.bwd_bits, "bwd_bits");
  if (g.features.empty() || g.feature_dim <= 0)
    throw InputError("graph '" + g.name + "' has no node features; training needs them (pubmed in ../shared has none: use it with gnn.mode=partition)");
  if (o.model.precompute_first && !precomputes_first(o.model))
    log::warn("gnn.model.precompute_first does not apply to {} (its first layer cannot be precomputed); ignored", o.model.arch);
  if (owner.size() != static_cast<size_t>(g.num_nodes)) throw Error("partition assignment does not match the graph's node count");
  for (int32_t p : owner)
    if (p < 0 || p >= o.parts) throw Error(fmt::format("partition assignment names part {} but gnn.parts = {}", p, o.parts));
  CommOptions co = s.comm;
  if (co.backend == "inproc") co.world_size = o.parts;
  const int ranks_here = co.backend == "inproc" ? o.parts : 1;
  const int per_worker = std::max(1, s.threads / ranks_here);
  const int saved = thread_count();
  if (ranks_here > 1) set_thread_count(per_worker);
  TrainResult result;
  try {
    comm::run_ranks(co, [&](comm::Communicator& c) {
      if (c.size() != o.parts)
        throw ConfigError(fmt::format("gnn.parts = {} but the communicator has {} ranks (mpirun -np must equal gnn.parts)", o.parts, c.size()));
      Worker{c, g, owner, s, result, per_worker}.run();
    });
  } catch (...) {
    if (ranks_here > 1) set_thread_count(saved);
    throw;
  }
  if (ranks_here > 1) set_thread_count(saved);
  return result;
}

}  // namespace mlsys::gnn
