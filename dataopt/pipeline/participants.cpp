#include "dataopt/pipeline/participants.hpp"

#include <algorithm>
#include <chrono>

#include "core/util/error.hpp"
#include "dataopt/data/as_matrix.hpp"
#include "dataopt/math/projection.hpp"
#include "dataopt/math/ridge.hpp"
#include "dataopt/math/uniformity.hpp"
#include "dataopt/pipeline/optimized_dataset.hpp"
#include "dataopt/pipeline/priors.hpp"

namespace mlsys::dataopt {

namespace {

std::vector<int64_t> range(int64_t b, int64_t e) {
  std::vector<int64_t> r;
  for (int64_t i = b; i < e; ++i) r.push_back(i);
  return r;
}

// Sums a per-participant vector over ranks (each rank fills only its own entries).
std::vector<double> combine(comm::Communicator& c, std::vector<double> v) {
  c.all_reduce(std::span<double>(v));
  return v;
}

}  // namespace

ParticipantReport run_participants(comm::Communicator& comm, const Plan& plan, const DataSource& data,
                                   const std::filesystem::path& digits_csv) {
  const auto t0 = std::chrono::steady_clock::now();
  const int K = plan.participants(), rank = comm.rank(), size = comm.size();
  if (K < 1) throw ConfigError("coopt.priors lists no participants");
  std::vector<int> mine;
  for (int k = rank; k < K; k += size) mine.push_back(k);

  // S: rank 0 reads it and broadcasts the pixels (other ranks never touch those rows).
  const std::vector<int64_t> s_rows = plan.alignment_rows();
  const auto m = static_cast<int64_t>(s_rows.size());
  int64_t geo[3] = {0, 0, 0};
  Matrix s_images;
  if (rank == 0) {
    std::vector<int64_t> file_rows;
    for (int64_t r : s_rows) file_rows.push_back(plan.pool_begin + r);
    const ImageSet pool_s = data.train_select(file_rows);
    s_images = as_matrix(pool_s);
    geo[0] = pool_s.channels, geo[1] = pool_s.height, geo[2] = pool_s.width;
  }
  comm.broadcast(geo, sizeof geo, 0);
  const Geometry g{static_cast<int>(geo[0]), static_cast<int>(geo[1]), static_cast<int>(geo[2])};
  if (rank != 0) s_images = Matrix(m, g.size());
  comm.broadcast(std::span<float>(s_images.v), 0);

  // Steps 1-2: each participant embeds its shard and S.
  struct Local {
    int k;
    ImageSet shard;
    Matrix z_shard, z_s;
  };
  std::vector<Local> local;
  std::vector<double> dims(static_cast<size_t>(K), 0), scores(static_cast<size_t>(K), 0);
  for (int k : mine) {
    const auto [b, e] = plan.shard(k);
    Local l{k, data.train_rows(plan.pool_begin + b, plan.pool_begin + e), {}, {}};
    PriorBuildContext ctx = build_context(plan, data, k, digits_csv);
    ctx.height = g.h;
    ctx.width = g.w;
    Prior prior = obtain_prior(plan, k, ctx);
    l.z_shard = prior.embed(as_matrix(l.shard), range(b, e));
    l.z_s = prior.embed(s_images, s_rows);
    dims[static_cast<size_t>(k)] = static_cast<double>(prior.dim());
    // Step 3 input: uniformity of the prior's own (normalized) embeddings on S.
    scores[static_cast<size_t>(k)] = uniformity_score(l.z_s, plan.uniformity_t, plan.center_uniformity);
    local.push_back(std::move(l));
  }
  dims = combine(comm, dims);
  scores = combine(comm, scores);

  // Projections: rank 0 generates every W_k and broadcasts it.
  std::vector<Matrix> w(static_cast<size_t>(K));
  for (int k = 0; k < K; ++k) {
    const auto d = static_cast<int64_t>(dims[static_cast<size_t>(k)]);
    w[static_cast<size_t>(k)] = rank == 0 ? random_projection(d, plan.common_dim, mix_seed(plan.seed, 0x9000 + static_cast<uint64_t>(k)))
                                          : Matrix(d, plan.common_dim);
    comm.broadcast(std::span<float>(w[static_cast<size_t>(k)].v), 0);
  }

  // Step 3: the reference prior.
  ParticipantReport rep;
  for (const PriorSpec& s : plan.priors) rep.names.push_back(s.name);
  rep.uniformity = scores;
  rep.alignment_rows = m;
  if (plan.reference.empty()) {
    rep.reference = static_cast<int>(std::min_element(scores.begin(), scores.end()) - scores.begin());
  } else {
    auto it = std::find(rep.names.begin(), rep.names.end(), plan.reference);
    if (it == rep.names.end())
      throw ConfigError("coopt.align.reference '" + plan.reference + "' is not a prior name (" + join(rep.names, ", ") + ")");
    rep.reference = static_cast<int>(it - rep.names.begin());
  }
  const int ref = rep.reference;
  Matrix b_ref(m, plan.common_dim);
  for (const Local& l : local)
    if (l.k == ref) b_ref = project(l.z_s, w[static_cast<size_t>(ref)]);
  comm.broadcast(std::span<float>(b_ref.v), ref % size);

  // Step 4-5: alignment, targets, per-shard files.
  std::vector<double> before(static_cast<size_t>(K), 0), after(static_cast<size_t>(K), 0);
  for (Local& l : local) {
    const Matrix& wk = w[static_cast<size_t>(l.k)];
    const Matrix a = project(l.z_s, wk);
    const Matrix t = l.k == ref ? identity_matrix(plan.common_dim) : ridge_fit(a, b_ref, plan.ridge);
    before[static_cast<size_t>(l.k)] = mean_squared_diff(a, b_ref);
    after[static_cast<size_t>(l.k)] = mean_squared_diff(matmul(a, t), b_ref);
    Shard sh;
    sh.images = as_matrix(l.shard);
    const Matrix projected = project(l.z_shard, wk);
    sh.targets = matmul(projected, t);
    if (plan.write_unaligned) sh.targets_unaligned = projected;
    const auto [b, e] = plan.shard(l.k);
    for (int64_t i = b; i < e; ++i) sh.index.push_back(static_cast<int32_t>(i));
    write_shard(plan.dataset_dir, l.k, sh);
  }
  rep.mse_before = combine(comm, before);
  rep.mse_after = combine(comm, after);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  comm.all_reduce(&secs, 1, comm::DType::f64, comm::ReduceOp::max);
  rep.seconds = secs;

  Json mf = Json::object();
  mf["format"] = "mlsys-coopt-optimized";
  mf["version"] = 1;
  mf["geometry"] = Json(Json::Array{Json(g.c), Json(g.h), Json(g.w)});
  mf["common_dim"] = plan.common_dim;
  mf["pool"] = Json(Json::Object{{"train_rows_begin", Json(plan.pool_begin)}, {"size", Json(plan.pool_size)}});
  mf["alignment_set"] = Json(Json::Object{{"rows", Json(m)}, {"fraction", Json(plan.align_fraction)}});
  mf["projection"] = Json(Json::Object{{"seed", Json(plan.seed)}, {"entries", "N(0, 1/n), seed mix_seed(seed, 0x9000 + k)"}});
  mf["uniformity_t"] = plan.uniformity_t;
  mf["ridge"] = plan.ridge;
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
    parts.push_back(p);
  }
  mf["participants"] = parts;
  comm.barrier();  // every shard is on disk before the manifest names it
  if (rank == 0) write_manifest(plan.dataset_dir, mf);
  rep.manifest = mf;
  return rep;
}

}  // namespace mlsys::dataopt
