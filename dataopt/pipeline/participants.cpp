#include "dataopt/pipeline/participants.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/log/log.hpp"
#include "core/util/error.hpp"
#include "dataopt/data/idx.hpp"
#include "dataopt/math/projection.hpp"
#include "dataopt/math/ridge.hpp"
#include "dataopt/math/tensor_ops.hpp"
#include "dataopt/math/uniformity.hpp"
#include "dataopt/pipeline/exchange.hpp"
#include "dataopt/pipeline/optimized_dataset.hpp"
#include "dataopt/pipeline/priors.hpp"

namespace mlsys::dataopt {

namespace {

// Rows per network call when embedding; slices of a shard start at multiples of it.
constexpr int64_t kEmbedChunk = 128;

// Sums a per-participant vector over ranks (each rank fills only its own entries).
std::vector<double> combine(Exchange& x, std::vector<double> v) {
  x.sum(v);
  return v;
}

}  // namespace

ParticipantReport run_participants(comm::Communicator& comm, DeviceContext& ctx, const Plan& plan,
                                   const DataSource& data) {
  const auto t0 = std::chrono::steady_clock::now();
  Exchange x(comm, ctx);
  const int K = plan.participants(), rank = comm.rank(), size = comm.size();
  if (K < 1) throw ConfigError("coopt.priors lists no participants");
  std::vector<int> mine;
  for (int k = rank; k < K; k += size) mine.push_back(k);
  // Rank r owns participants k = r, r + size, ... (their S embeddings, alignment and files), but
  // embedding a shard is split over all ranks: every rank embeds one slice of every shard. Priors
  // differ a lot in cost (a CNN costs 10-30x an MLP per image), so whole participants per rank would
  // leave one rank with most of the work. Slices start at multiples of the embedding chunk, so
  // every row goes through exactly the same GEMM blocks whatever the number of ranks (bit-identical
  // results). The owner, which also embeds S and fits the alignment, takes the last (smallest)
  // slice; the others rotate with k so the larger slices spread over the ranks.
  auto slice = [&](int k, int r) {
    const auto [b, e] = plan.shard(k);
    const int64_t units = (e - b + kEmbedChunk - 1) / kEmbedChunk;
    const int q = ((r - k % size - 1) % size + size) % size;
    return std::pair<int64_t, int64_t>{std::min(e, b + kEmbedChunk * (units * q / size)),
                                       std::min(e, b + kEmbedChunk * (units * (q + 1) / size))};
  };
  auto owns = [&](int k) { return k % size == rank; };

  // Each rank reads its owned shards and its slices of the others, in one pass over the train
  // file, and nothing else.
  std::vector<int64_t> need;
  for (int k = 0; k < K; ++k) {
    const auto [b, e] = owns(k) ? plan.shard(k) : slice(k, rank);
    for (int64_t i = b; i < e; ++i) need.push_back(i);
  }
  std::sort(need.begin(), need.end());
  std::vector<int64_t> file_rows;
  for (int64_t i : need) file_rows.push_back(plan.pool_begin + i);
  ImageSet rows = need.empty() ? ImageSet{} : data.train_select(file_rows);
  log::debug("coopt: rank {} read {} pool rows in {:.3f}s", rank, rows.n,
             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  std::vector<int64_t> geo{rows.channels, rows.height, rows.width};
  x.max(geo);  // ranks without rows read nothing
  const Geometry g{static_cast<int>(geo[0]), static_cast<int>(geo[1]), static_cast<int>(geo[2])};
  // Pixels of pool rows [b, e) (all read by this rank) as a host tensor; images stay on the host
  // (the optimized dataset's files) and move to ctx where a network embeds them.
  auto pixels = [&](int64_t b, int64_t e) {
    Tensor h = Tensor::empty({e - b, g.size()}, DType::f32);
    if (e > b)
      std::copy_n(rows.image(std::lower_bound(need.begin(), need.end(), b) - need.begin()), h.numel(), h.data<float>());
    return h;
  };

  // S lies inside the pool: every rank fills the rows of S that fall in its owned shards, zeros
  // elsewhere, and a sum over ranks assembles the pixels exactly (each value meets only zeros).
  const std::vector<int64_t> s_rows = plan.alignment_rows();
  const auto m = static_cast<int64_t>(s_rows.size());
  const Tensor s_images = Tensor::zeros({m, g.size()}, DType::f32);
  for (int64_t i = 0; i < m; ++i) {
    const int64_t r = s_rows[static_cast<size_t>(i)];
    for (int k : mine)
      if (r >= plan.shard(k).first && r < plan.shard(k).second)
        std::copy_n(rows.image(std::lower_bound(need.begin(), need.end(), r) - need.begin()), g.size(),
                    s_images.data<float>() + i * g.size());
  }
  x.sum(s_images);

  // Owners first obtain their priors (training any that is not cached yet), then every rank loads
  // the priors of the shards it helps with from the cache.
  std::vector<Prior> priors(static_cast<size_t>(K));
  auto obtain = [&](int k) {
    priors[static_cast<size_t>(k)] = obtain_prior(plan, k, build_context(ctx, plan, data, k, g));
  };
  for (int k : mine) obtain(k);
  comm.barrier();
  for (int k = 0; k < K; ++k)
    if (!owns(k) && slice(k, rank).second > slice(k, rank).first) obtain(k);

  // Steps 1-2: each participant embeds its shard (all ranks, by slices) and S (the owner). All the
  // embedding comes first and the gathers after, so ranks wait for each other once, not per prior.
  struct Local {
    int k;
    Tensor images, z_shard, z_s;
  };
  std::vector<Local> local;
  std::vector<Tensor> z_slices(static_cast<size_t>(K));
  std::vector<double> dims(static_cast<size_t>(K), 0), scores(static_cast<size_t>(K), 0);
  for (int k = 0; k < K; ++k) {
    const auto te = std::chrono::steady_clock::now();
    const auto [sb, se] = slice(k, rank);
    Prior& prior = priors[static_cast<size_t>(k)];
    if (se > sb) z_slices[static_cast<size_t>(k)] = prior.embed(ctx, pixels(sb, se), iota_rows(sb, se), kEmbedChunk);
    if (owns(k)) {
      Local l{k, pixels(plan.shard(k).first, plan.shard(k).second), {}, prior.embed(ctx, s_images, s_rows, kEmbedChunk)};
      dims[static_cast<size_t>(k)] = static_cast<double>(prior.dim());
      // Step 3 input: uniformity of the prior's own (normalized) embeddings on S.
      scores[static_cast<size_t>(k)] = uniformity_score(ctx, l.z_s, plan.align.uniformity_t, plan.align.center_uniformity);
      local.push_back(std::move(l));
    }
    log::debug("coopt: rank {} participant {} embedded {} rows in {:.3f}s", rank, k, se - sb,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - te).count());
  }
  dims = combine(x, dims);
  scores = combine(x, scores);
  // The owner gathers the slices (all_gather_v: every rank receives them; they are small), in rank
  // order, then puts them in row order.
  for (int k = 0; k < K; ++k) {
    const auto dim = static_cast<int64_t>(dims[static_cast<size_t>(k)]);
    std::vector<int64_t> slice_rows;
    for (int r = 0; r < size; ++r) slice_rows.push_back(slice(k, r).second - slice(k, r).first);
    const auto [b, e] = plan.shard(k);
    const Tensor gathered = x.all_gather_rows(z_slices[static_cast<size_t>(k)], slice_rows, Shape{dim});
    z_slices[static_cast<size_t>(k)] = Tensor();
    for (Local& l : local) {
      if (l.k != k) continue;
      l.z_shard = Tensor::empty({e - b, dim}, DType::f32, ctx);
      for (int r = 0, at = 0; r < size; ++r) {
        const auto [rb, re] = slice(k, r);
        if (re > rb) l.z_shard.rows(rb - b, re - b).copy_from(gathered.rows(at, at + (re - rb)));
        at += static_cast<int>(re - rb);
      }
    }
  }
  rows = ImageSet{};
  priors.clear();

  // Projections: rank 0 generates every W_k and broadcasts it.
  std::vector<Tensor> w(static_cast<size_t>(K));
  for (int k = 0; k < K; ++k) {
    const auto d = static_cast<int64_t>(dims[static_cast<size_t>(k)]);
    w[static_cast<size_t>(k)] = rank == 0 ? random_projection(d, plan.align.common_dim, projection_seed(plan.seed, k)).to(ctx)
                                          : Tensor::empty({d, plan.align.common_dim}, DType::f32, ctx);
    x.broadcast(w[static_cast<size_t>(k)], 0);
  }

  // Step 3: the reference prior.
  ParticipantReport rep;
  for (const PriorSpec& s : plan.priors) rep.names.push_back(s.name);
  rep.uniformity = scores;
  rep.alignment_rows = m;
  if (plan.align.reference.empty()) {
    rep.reference = static_cast<int>(std::min_element(scores.begin(), scores.end()) - scores.begin());
  } else {
    auto it = std::find(rep.names.begin(), rep.names.end(), plan.align.reference);
    if (it == rep.names.end())
      throw ConfigError("coopt.align.reference '" + plan.align.reference + "' is not a prior name (" + join(rep.names, ", ") + ")");
    rep.reference = static_cast<int>(it - rep.names.begin());
  }
  const int ref = rep.reference;
  Tensor b_ref = Tensor::empty({m, plan.align.common_dim}, DType::f32, ctx);
  for (const Local& l : local)
    if (l.k == ref) b_ref = project(ctx, l.z_s, w[static_cast<size_t>(ref)]);
  x.broadcast(b_ref, ref % size);

  // Step 4-5: alignment, targets, per-shard files.
  std::vector<double> before(static_cast<size_t>(K), 0), after(static_cast<size_t>(K), 0), r2(static_cast<size_t>(K), 0);
  for (Local& l : local) {
    const Tensor& wk = w[static_cast<size_t>(l.k)];
    const Tensor a = project(ctx, l.z_s, wk);
    const bool fit = l.k != ref && plan.align.map == "ridge";
    const Alignment t = fit ? fit_alignment(ctx, a, b_ref, plan.align.ridge, plan.align.intercept)
                            : identity_alignment(plan.align.common_dim);
    before[static_cast<size_t>(l.k)] = mean_squared_diff(a, b_ref);
    after[static_cast<size_t>(l.k)] = mean_squared_diff(t.apply(ctx, a), b_ref);
    // Without a fit there is no R^2 (null in the manifest), and nothing to weigh (weight 1 below).
    r2[static_cast<size_t>(l.k)] = l.k == ref ? 1.0 : fit ? t.loo_r2 : std::nan("");
    Shard sh;
    sh.images = std::move(l.images);
    const Tensor projected = project(ctx, l.z_shard, wk);
    sh.targets = t.apply(ctx, projected);
    if (plan.write_unaligned) sh.targets_unaligned = projected;
    const auto [b, e] = plan.shard(l.k);
    for (int64_t i = b; i < e; ++i) sh.index.push_back(static_cast<int32_t>(i));
    const auto tw = std::chrono::steady_clock::now();
    write_shard(plan.dataset_dir, l.k, sh);
    log::debug("coopt: rank {} wrote shard {} in {:.3f}s", rank, l.k,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - tw).count());
  }
  rep.mse_before = combine(x, before);
  rep.mse_after = combine(x, after);
  rep.loo_r2 = combine(x, r2);
  // Step 6 input: how much the student should trust each participant's targets.
  for (int k = 0; k < K; ++k)
    rep.weight.push_back(plan.align.weighting == "none" || plan.align.map == "identity"
                             ? 1.0
                             : std::clamp(rep.loo_r2[static_cast<size_t>(k)], 0.0, 1.0));
  // Every rank's time, summed for the slowest one's (a max over ranks of one value each).
  std::vector<double> secs(static_cast<size_t>(size), 0);
  secs[static_cast<size_t>(rank)] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  x.sum(secs);
  rep.seconds = *std::max_element(secs.begin(), secs.end());

  Json mf = Json::object();
  mf["format"] = "mlsys-coopt-optimized";
  mf["version"] = 1;
  mf["geometry"] = Json(Json::Array{Json(g.c), Json(g.h), Json(g.w)});
  mf["common_dim"] = plan.align.common_dim;
  mf["pool"] = Json(Json::Object{{"train_rows_begin", Json(plan.pool_begin)}, {"size", Json(plan.pool_size)}});
  mf["alignment_set"] = Json(Json::Object{{"rows", Json(m)}, {"fraction", Json(plan.align.fraction)}});
  mf["projection"] = Json(Json::Object{{"seed", Json(plan.seed)}, {"entries", "N(0, 1/n) from mlsys::Rng(derive_seed(seed, 0x9000 + k))"}});
  mf["uniformity_t"] = plan.align.uniformity_t;
  mf["ridge"] = plan.align.ridge;
  mf["map"] = plan.align.map;
  mf["intercept"] = plan.align.intercept;
  mf["weighting"] = plan.align.weighting;
  mf["reference"] = rep.names[static_cast<size_t>(ref)];
  Json parts = Json::array();
  for (int k = 0; k < K; ++k) {
    const auto [b, e] = plan.shard(k);
    Json p = Json::object();
    p["name"] = rep.names[static_cast<size_t>(k)];
    p["kind"] = plan.priors[static_cast<size_t>(k)].kind;
    p["rows"] = e - b;
    p["embedding_dim"] = dims[static_cast<size_t>(k)];
    p["uniformity"] = scores[static_cast<size_t>(k)];
    p["align_mse_before"] = rep.mse_before[static_cast<size_t>(k)];
    p["align_mse_after"] = rep.mse_after[static_cast<size_t>(k)];
    p["align_loo_r2"] = rep.loo_r2[static_cast<size_t>(k)];
    p["weight"] = rep.weight[static_cast<size_t>(k)];
    parts.push_back(p);
  }
  mf["participants"] = parts;
  comm.barrier();  // every shard is on disk before the manifest names it
  if (rank == 0) write_manifest(plan.dataset_dir, mf);
  rep.manifest = mf;
  return rep;
}

}  // namespace mlsys::dataopt
