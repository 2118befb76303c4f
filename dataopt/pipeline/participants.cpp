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

size_t at(int k) { return static_cast<size_t>(k); }

// Who does what. Rank r owns participants k = r, r + size, ... (their S embeddings, alignment and
// files), but embedding a shard is split over all ranks: every rank embeds one slice of every
// shard. Priors differ a lot in cost (a CNN costs 10-30x an MLP per image), so whole participants
// per rank would leave one rank with most of the work. Slices start at multiples of the embedding
// chunk, so every row goes through exactly the same GEMM blocks whatever the number of ranks
// (bit-identical results). The owner, which also embeds S and fits the alignment, takes the last
// (smallest) slice; the others rotate with k so the larger slices spread over the ranks.
struct Layout {
  const Plan& plan;
  int K, rank, size;

  bool owns(int k) const { return k % size == rank; }
  std::pair<int64_t, int64_t> slice(int k, int r) const {
    const auto [b, e] = plan.shard(k);
    const int64_t units = (e - b + kEmbedChunk - 1) / kEmbedChunk;
    const int q = ((r - k % size - 1) % size + size) % size;
    return {std::min(e, b + kEmbedChunk * (units * q / size)), std::min(e, b + kEmbedChunk * (units * (q + 1) / size))};
  }
  std::vector<int> mine() const {
    std::vector<int> v;
    for (int k = rank; k < K; k += size) v.push_back(k);
    return v;
  }
};

// The pool rows this rank reads (its owned shards and its slices of the others, in one pass over
// the train file, nothing else) and their image geometry (agreed over ranks).
struct PoolRows {
  std::vector<int64_t> need;  // sorted pool row indices
  ImageSet rows;
  Geometry g{};

  // Pixels of pool rows [b, e) (all read by this rank) as a host tensor; images stay on the host
  // (the optimized dataset's files) and move to ctx where a network embeds them.
  Tensor pixels(int64_t b, int64_t e) const {
    Tensor h = Tensor::empty({e - b, g.size()}, DType::f32);
    if (e > b) std::copy_n(image(b), h.numel(), h.data<float>());
    return h;
  }
  const float* image(int64_t pool_row) const {
    return rows.image(std::lower_bound(need.begin(), need.end(), pool_row) - need.begin());
  }
};

PoolRows read_pool_rows(const Layout& lay, const DataSource& data, Exchange& x) {
  const auto t0 = std::chrono::steady_clock::now();
  PoolRows pr;
  for (int k = 0; k < lay.K; ++k) {
    const auto [b, e] = lay.owns(k) ? lay.plan.shard(k) : lay.slice(k, lay.rank);
    for (int64_t i = b; i < e; ++i) pr.need.push_back(i);
  }
  std::sort(pr.need.begin(), pr.need.end());
  std::vector<int64_t> file_rows;
  for (int64_t i : pr.need) file_rows.push_back(lay.plan.pool_begin + i);
  pr.rows = pr.need.empty() ? ImageSet{} : data.train_select(file_rows);
  log::debug("coopt: rank {} read {} pool rows in {:.3f}s", lay.rank, pr.rows.n,
             std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  std::vector<int64_t> geo{pr.rows.channels, pr.rows.height, pr.rows.width};
  x.max(geo);  // ranks without rows read nothing
  pr.g = Geometry{static_cast<int>(geo[0]), static_cast<int>(geo[1]), static_cast<int>(geo[2])};
  return pr;
}

// S lies inside the pool: every rank fills the rows of S that fall in its owned shards, zeros
// elsewhere, and a sum over ranks assembles the pixels exactly (each value meets only zeros).
Tensor alignment_images(const Layout& lay, const PoolRows& pr, const std::vector<int64_t>& s_rows, Exchange& x) {
  const auto m = static_cast<int64_t>(s_rows.size());
  const Tensor s_images = Tensor::zeros({m, pr.g.size()}, DType::f32);
  const std::vector<int> mine = lay.mine();
  for (int64_t i = 0; i < m; ++i) {
    const int64_t r = s_rows[static_cast<size_t>(i)];
    for (int k : mine)
      if (r >= lay.plan.shard(k).first && r < lay.plan.shard(k).second)
        std::copy_n(pr.image(r), pr.g.size(), s_images.data<float>() + i * pr.g.size());
  }
  x.sum(s_images);
  return s_images;
}

// Owners first obtain their priors (training any that is not cached yet), then every rank loads
// the priors of the shards it helps with from the cache.
std::vector<Prior> obtain_priors(const Layout& lay, comm::Communicator& comm, DeviceContext& ctx,
                                 const DataSource& data, const Geometry& g) {
  std::vector<Prior> priors(at(lay.K));
  auto obtain = [&](int k) { priors[at(k)] = obtain_prior(lay.plan, k, build_context(ctx, lay.plan, data, k, g)); };
  for (int k : lay.mine()) obtain(k);
  comm.barrier();
  for (int k = 0; k < lay.K; ++k)
    if (!lay.owns(k) && lay.slice(k, lay.rank).second > lay.slice(k, lay.rank).first) obtain(k);
  return priors;
}

// An owned participant: its shard's pixels and embeddings, and its embedding of S.
struct Local {
  int k;
  Tensor images, z_shard, z_s;
};

struct Embedded {
  std::vector<Local> local;            // this rank's owned participants
  std::vector<double> dims, scores;    // per participant, summed over ranks
};

// Steps 1-2: each participant embeds its shard (all ranks, by slices) and S (the owner). All the
// embedding comes first and the gathers after, so ranks wait for each other once, not per prior.
Embedded embed_all(const Layout& lay, DeviceContext& ctx, const PoolRows& pr, std::vector<Prior>& priors,
                   const Tensor& s_images, const std::vector<int64_t>& s_rows, Exchange& x) {
  const Plan& plan = lay.plan;
  Embedded em;
  std::vector<Tensor> z_slices(at(lay.K));
  em.dims.assign(at(lay.K), 0);
  em.scores.assign(at(lay.K), 0);
  for (int k = 0; k < lay.K; ++k) {
    const auto te = std::chrono::steady_clock::now();
    const auto [sb, se] = lay.slice(k, lay.rank);
    Prior& prior = priors[at(k)];
    if (se > sb) z_slices[at(k)] = prior.embed(ctx, pr.pixels(sb, se), iota_rows(sb, se), kEmbedChunk);
    if (lay.owns(k)) {
      Local l{k, pr.pixels(plan.shard(k).first, plan.shard(k).second), {},
              prior.embed(ctx, s_images, s_rows, kEmbedChunk)};
      em.dims[at(k)] = static_cast<double>(prior.dim());
      // Step 3 input: uniformity of the prior's own (normalized) embeddings on S.
      em.scores[at(k)] = uniformity_score(ctx, l.z_s, plan.align.uniformity_t, plan.align.center_uniformity);
      em.local.push_back(std::move(l));
    }
    log::debug("coopt: rank {} participant {} embedded {} rows in {:.3f}s", lay.rank, k, se - sb,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - te).count());
  }
  em.dims = combine(x, em.dims);
  em.scores = combine(x, em.scores);
  // The owner gathers the slices (all_gather_v: every rank receives them; they are small), in rank
  // order, then puts them in row order.
  for (int k = 0; k < lay.K; ++k) {
    const auto dim = static_cast<int64_t>(em.dims[at(k)]);
    std::vector<int64_t> slice_rows;
    for (int r = 0; r < lay.size; ++r) slice_rows.push_back(lay.slice(k, r).second - lay.slice(k, r).first);
    const auto [b, e] = plan.shard(k);
    const Tensor gathered = x.all_gather_rows(z_slices[at(k)], slice_rows, Shape{dim});
    z_slices[at(k)] = Tensor();
    for (Local& l : em.local) {
      if (l.k != k) continue;
      l.z_shard = Tensor::empty({e - b, dim}, DType::f32, ctx);
      for (int r = 0, row = 0; r < lay.size; ++r) {
        const auto [rb, re] = lay.slice(k, r);
        if (re > rb) l.z_shard.rows(rb - b, re - b).copy_from(gathered.rows(row, row + (re - rb)));
        row += static_cast<int>(re - rb);
      }
    }
  }
  return em;
}

// Projections: rank 0 generates every W_k and broadcasts it.
std::vector<Tensor> projections(const Layout& lay, DeviceContext& ctx, const std::vector<double>& dims, Exchange& x) {
  std::vector<Tensor> w(at(lay.K));
  for (int k = 0; k < lay.K; ++k) {
    const auto d = static_cast<int64_t>(dims[at(k)]);
    w[at(k)] = lay.rank == 0 ? random_projection(d, lay.plan.align.common_dim, projection_seed(lay.plan.seed, k)).to(ctx)
                             : Tensor::empty({d, lay.plan.align.common_dim}, DType::f32, ctx);
    x.broadcast(w[at(k)], 0);
  }
  return w;
}

// Step 3: the reference prior: the configured one, else the most uniform embedding on S.
int choose_reference(const Plan& plan, const std::vector<std::string>& names, const std::vector<double>& scores) {
  if (plan.align.reference.empty())
    return static_cast<int>(std::min_element(scores.begin(), scores.end()) - scores.begin());
  auto it = std::find(names.begin(), names.end(), plan.align.reference);
  if (it == names.end())
    throw ConfigError("coopt.align.reference '" + plan.align.reference + "' is not a prior name (" + join(names, ", ") + ")");
  return static_cast<int>(it - names.begin());
}

// Steps 4-5: each owned participant's alignment to the reference, its targets and shard files;
// fills the report's per-participant alignment figures and weights.
void align_and_write(const Layout& lay, DeviceContext& ctx, Embedded& em, const std::vector<Tensor>& w,
                     const Tensor& b_ref, Exchange& x, ParticipantReport& rep) {
  const Plan& plan = lay.plan;
  const int ref = rep.reference;
  std::vector<double> before(at(lay.K), 0), after(at(lay.K), 0), r2(at(lay.K), 0);
  for (Local& l : em.local) {
    const Tensor& wk = w[at(l.k)];
    const Tensor a = project(ctx, l.z_s, wk);
    const bool fit = l.k != ref && plan.align.map == "ridge";
    const Alignment t =
        fit ? fit_alignment(ctx, a, b_ref, plan.align.ridge, plan.align.intercept) : identity_alignment(plan.align.common_dim);
    before[at(l.k)] = mean_squared_diff(a, b_ref);
    after[at(l.k)] = mean_squared_diff(t.apply(ctx, a), b_ref);
    // Without a fit there is no R^2 (null in the manifest), and nothing to weigh (weight 1 below).
    r2[at(l.k)] = l.k == ref ? 1.0 : fit ? t.loo_r2 : std::nan("");
    Shard sh;
    sh.images = std::move(l.images);
    const Tensor projected = project(ctx, l.z_shard, wk);
    sh.targets = t.apply(ctx, projected);
    if (plan.write_unaligned) sh.targets_unaligned = projected;
    const auto [b, e] = plan.shard(l.k);
    for (int64_t i = b; i < e; ++i) sh.index.push_back(static_cast<int32_t>(i));
    const auto tw = std::chrono::steady_clock::now();
    write_shard(plan.dataset_dir, l.k, sh);
    log::debug("coopt: rank {} wrote shard {} in {:.3f}s", lay.rank, l.k,
               std::chrono::duration<double>(std::chrono::steady_clock::now() - tw).count());
  }
  rep.mse_before = combine(x, before);
  rep.mse_after = combine(x, after);
  rep.loo_r2 = combine(x, r2);
  // Step 6 input: how much the student should trust each participant's targets.
  for (int k = 0; k < lay.K; ++k)
    rep.weight.push_back(plan.align.weighting == "none" || plan.align.map == "identity"
                             ? 1.0
                             : std::clamp(rep.loo_r2[at(k)], 0.0, 1.0));
}

// The optimized dataset's manifest: its geometry, the plan's settings and each participant's figures.
Json manifest(const Plan& plan, const Geometry& g, int64_t m, const Embedded& em, const ParticipantReport& rep) {
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
  mf["reference"] = rep.names[at(rep.reference)];
  Json parts = Json::array();
  for (int k = 0; k < plan.participants(); ++k) {
    const auto [b, e] = plan.shard(k);
    Json p = Json::object();
    p["name"] = rep.names[at(k)];
    p["kind"] = plan.priors[at(k)].kind;
    p["rows"] = e - b;
    p["embedding_dim"] = em.dims[at(k)];
    p["uniformity"] = em.scores[at(k)];
    p["align_mse_before"] = rep.mse_before[at(k)];
    p["align_mse_after"] = rep.mse_after[at(k)];
    p["align_loo_r2"] = rep.loo_r2[at(k)];
    p["weight"] = rep.weight[at(k)];
    parts.push_back(p);
  }
  mf["participants"] = parts;
  return mf;
}

}  // namespace

ParticipantReport run_participants(comm::Communicator& comm, DeviceContext& ctx, const Plan& plan,
                                   const DataSource& data) {
  const auto t0 = std::chrono::steady_clock::now();
  Exchange x(comm, ctx);
  const Layout lay{plan, plan.participants(), comm.rank(), comm.size()};
  if (lay.K < 1) throw ConfigError("coopt.priors lists no participants");
  PoolRows pool = read_pool_rows(lay, data, x);
  const std::vector<int64_t> s_rows = plan.alignment_rows();
  const Tensor s_images = alignment_images(lay, pool, s_rows, x);
  std::vector<Prior> priors = obtain_priors(lay, comm, ctx, data, pool.g);
  Embedded em = embed_all(lay, ctx, pool, priors, s_images, s_rows, x);
  const Geometry g = pool.g;
  pool = PoolRows{};
  priors.clear();
  const std::vector<Tensor> w = projections(lay, ctx, em.dims, x);

  ParticipantReport rep;
  for (const PriorSpec& s : plan.priors) rep.names.push_back(s.name);
  rep.uniformity = em.scores;
  rep.alignment_rows = static_cast<int64_t>(s_rows.size());
  rep.reference = choose_reference(plan, rep.names, em.scores);
  const int ref = rep.reference;
  Tensor b_ref = Tensor::empty({rep.alignment_rows, plan.align.common_dim}, DType::f32, ctx);
  for (const Local& l : em.local)
    if (l.k == ref) b_ref = project(ctx, l.z_s, w[at(ref)]);
  x.broadcast(b_ref, ref % lay.size);
  align_and_write(lay, ctx, em, w, b_ref, x, rep);
  // Every rank's time, summed for the slowest one's (a max over ranks of one value each).
  std::vector<double> secs(at(lay.size), 0);
  secs[at(lay.rank)] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  x.sum(secs);
  rep.seconds = *std::max_element(secs.begin(), secs.end());

  rep.manifest = manifest(plan, g, rep.alignment_rows, em, rep);
  comm.barrier();  // every shard is on disk before the manifest names it
  if (lay.rank == 0) write_manifest(plan.dataset_dir, rep.manifest);
  return rep;
}

}  // namespace mlsys::dataopt
