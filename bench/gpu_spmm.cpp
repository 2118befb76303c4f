// SpMM (out = A X) and SpMM^T (out = A^T X) on a cuda context beside cuSPARSE called directly on
// the same matrix and dense block, on an R-MAT matrix (default 2^20 x 2^20, 31M nonzeros: the GCN
// layer of the train-gnn benchmark) at F = 128 and F = 16. mlsys sends these products to cuSPARSE
// itself (core/kernels/cuda/cusparse_spmm.cu), so the ratio shows what its dispatch, descriptor
// reuse and beta = 0 clearing cost. cuSPARSE's three CSR algorithms are timed; the fastest is the
// reference. The hand kernel that remains (per-edge values read through edge ids, as GAT's
// backward does) is timed beside the same product for the record.
// Target (issue #27): mlsys within 1.2x of cuSPARSE's best time, at both widths.
// Also checks both products against the CPU kernels on a 2^14 matrix (exit 1 on a mismatch) and
// that two runs give the same bits (exit 1 otherwise).
//   bench_gpu_spmm [scale=20] [nnz=31000000] [reps=10]
#include <cusparse.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "bench/gpu_common.hpp"
#include "core/kernels/kernels.hpp"
#include "core/tensor/csr.hpp"

using namespace mlsys;
using namespace mlsys::bench;

namespace {

constexpr double kTargetRatio = 1.2;  // mlsys time / cuSPARSE's best time

void check_sparse(cusparseStatus_t st, const char* what) {
  if (st == CUSPARSE_STATUS_SUCCESS) return;
  std::fprintf(stderr, "%s failed: %s\n", what, cusparseGetErrorString(st));
  std::exit(1);
}

Tensor features(int64_t rows, int64_t f) {
  std::vector<float> v(static_cast<size_t>(rows * f));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>((i * 2654435761u) % 997) / 997.f - 0.5f;
  return Tensor::from_vector(v, Shape{rows, f});
}

double max_diff(const Tensor& a, const Tensor& b) {
  std::vector<float> x = a.to_vector<float>(), y = b.to_vector<float>();
  double m = 0;
  for (size_t i = 0; i < x.size(); ++i) m = std::max(m, static_cast<double>(std::fabs(x[i] - y[i])));
  return m;
}

// The CUDA products agree with the CPU kernels (up to float summation order) on a small matrix,
// with and without values, and repeat bit for bit.
bool check_small(DeviceContext& ctx) {
  bool ok = true;
  for (bool values : {true, false}) {
    Csr host = Csr::random(1 << 14, 1 << 14, 200000, 7, true, values).with_transpose();
    Csr dev = host.to(ctx);
    Tensor x = features(host.rows, 32);
    Tensor want = Tensor::zeros({host.rows, 32}), want_t = Tensor::zeros({host.cols, 32});
    kernels::spmm(cpu_context(), host, x, want);
    kernels::spmm_t(cpu_context(), host, x, want_t);
    Tensor xd = x.to(ctx);
    Tensor got = Tensor::full({host.rows, 32}, NAN).to(ctx), got_t = Tensor::zeros({host.cols, 32}, DType::f32, ctx);
    kernels::spmm(ctx, dev, xd, got);  // beta = 0 over NaN: must not read `out`
    kernels::spmm_t(ctx, dev, xd, got_t);
    Tensor again = Tensor::zeros({host.rows, 32}, DType::f32, ctx);
    kernels::spmm(ctx, dev, xd, again);
    ctx.synchronize();
    const double d = max_diff(got, want), dt = max_diff(got_t, want_t);
    const bool same = got.to_vector<float>() == again.to_vector<float>();
    std::printf("check vs CPU kernels (2^14, 200k nonzeros, F=32, %s): spmm max |diff| %.3g, spmm_t %.3g, repeat %s\n",
                values ? "values" : "no values", d, dt, same ? "identical" : "DIFFERS");
    ok = ok && d < 1e-3 && dt < 1e-3 && same;
  }
  return ok;
}

// cuSPARSE on our arrays: 32-bit offsets made here (as the plugin does for 32-bit columns).
class DirectCusparse {
 public:
  DirectCusparse(DeviceContext& ctx, const Csr& a) : ctx_(ctx), a_(a) {
    check_sparse(cusparseCreate(&h_), "cusparseCreate");
    check_sparse(cusparseSetStream(h_, stream_of(ctx)), "cusparseSetStream");
    std::vector<int64_t> rp = a.row_ptr.to_vector<int64_t>();
    offsets_ = Tensor::from_vector(std::vector<int32_t>(rp.begin(), rp.end()), Shape{a.rows + 1}).to(ctx);
    check_sparse(cusparseCreateCsr(&m_, a.rows, a.cols, a.nnz(), offsets_.raw(), a.col.raw(), a.values.raw(),
                                   CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F),
                 "cusparseCreateCsr");
  }
  ~DirectCusparse() {
    cusparseDestroySpMat(m_);
    cusparseDestroy(h_);
  }
  // Best time of out = A x with `alg` (workspace and descriptors made before timing); -1 when
  // cuSPARSE does not take this algorithm for this layout (it says why).
  double time(cusparseSpMMAlg_t alg, const Tensor& x, const Tensor& out, int64_t f, int reps) {
    cusparseDnMatDescr_t xd, od;
    check_sparse(cusparseCreateDnMat(&xd, a_.cols, f, f, x.raw(), CUDA_R_32F, CUSPARSE_ORDER_ROW), "cusparseCreateDnMat");
    check_sparse(cusparseCreateDnMat(&od, a_.rows, f, f, out.raw(), CUDA_R_32F, CUSPARSE_ORDER_ROW), "cusparseCreateDnMat");
    const float alpha = 1.f, beta = 0.f;
    const auto op = CUSPARSE_OPERATION_NON_TRANSPOSE;
    size_t bytes = 0;
    double t = -1;
    cusparseStatus_t st = cusparseSpMM_bufferSize(h_, op, op, &alpha, m_, xd, &beta, od, CUDA_R_32F, alg, &bytes);
    if (st == CUSPARSE_STATUS_SUCCESS) {
      DeviceContext::Scratch ws(ctx_, bytes);
      if (alg != CUSPARSE_SPMM_CSR_ALG2)  // preprocessing helps ALG1 and ALG3 (cuSPARSE's documentation)
        st = cusparseSpMM_preprocess(h_, op, op, &alpha, m_, xd, &beta, od, CUDA_R_32F, alg, ws.get());
      if (st == CUSPARSE_STATUS_SUCCESS)
        st = cusparseSpMM(h_, op, op, &alpha, m_, xd, &beta, od, CUDA_R_32F, alg, ws.get());
      if (st == CUSPARSE_STATUS_SUCCESS)
        t = best_seconds(stream_of(ctx_), reps, [&] {
          check_sparse(cusparseSpMM(h_, op, op, &alpha, m_, xd, &beta, od, CUDA_R_32F, alg, ws.get()), "cusparseSpMM");
        });
    }
    if (st != CUSPARSE_STATUS_SUCCESS) std::printf("  (algorithm %d not taken: %s)\n", int(alg), cusparseGetErrorString(st));
    cusparseDestroyDnMat(xd);
    cusparseDestroyDnMat(od);
    return t;
  }

 private:
  DeviceContext& ctx_;
  const Csr& a_;
  Tensor offsets_;
  cusparseHandle_t h_ = nullptr;
  cusparseSpMatDescr_t m_ = nullptr;
};

}  // namespace

int main(int argc, char** argv) {
  const int scale = arg_int(argc, argv, 1, 20);
  const int64_t nnz = argc > 2 ? std::atoll(argv[2]) : 31000000;
  const int reps = arg_int(argc, argv, 3, 10);
  auto ctx_owner = cuda_context_or_skip("bench_gpu_spmm");
  DeviceContext& ctx = *ctx_owner;
  if (!check_small(ctx)) {
    std::printf("FAIL: the CUDA SpMM products disagree with the CPU kernels or do not repeat\n");
    return 1;
  }
  const int64_t n = int64_t(1) << scale;
  Csr a = Csr::random(n, n, nnz, 1, true, true).with_transpose().to(ctx);
  const double copy_bw = copy_bandwidth(ctx, static_cast<size_t>(n) * 128 * 4, reps);
  std::printf("R-MAT 2^%d, %lld nonzeros; device copy %.1f GB/s (read + write)\n", scale, static_cast<long long>(a.nnz()),
              copy_bw / 1e9);
  result("device_copy_bandwidth", copy_bw / 1e9, "GB/s");
  DirectCusparse direct(ctx, a), direct_t(ctx, *a.transposed);
  for (int64_t f : {int64_t(128), int64_t(16)}) {
    Tensor x = features(n, f).to(ctx);
    Tensor out = Tensor::zeros({n, f}, DType::f32, ctx);
    double best = 1e30, best_t = 1e30;
    for (auto [alg, name] : {std::pair{CUSPARSE_SPMM_CSR_ALG1, "alg1"}, std::pair{CUSPARSE_SPMM_CSR_ALG2, "alg2"},
                             std::pair{CUSPARSE_SPMM_CSR_ALG3, "alg3"}}) {
      const double t = direct.time(alg, x, out, f, reps), tt = direct_t.time(alg, x, out, f, reps);
      std::printf("F=%lld cuSPARSE %s: A X %.3f ms, A^T X (stored transpose) %.3f ms (-1: not taken)\n",
                  static_cast<long long>(f), name, 1e3 * t, 1e3 * tt);
      if (t > 0) best = std::min(best, t);
      if (tt > 0) best_t = std::min(best_t, tt);
    }
    const double ours = best_seconds(stream_of(ctx), reps, [&] { kernels::spmm(ctx, a, x, out); });
    const double ours_t = best_seconds(stream_of(ctx), reps, [&] { kernels::spmm_t(ctx, a, x, out); });
    // The hand kernel: A^T X with per-edge values read through the transpose's edge ids.
    Tensor ev = Tensor::full({a.nnz()}, 0.5f).to(ctx);
    const double hand = best_seconds(stream_of(ctx), reps, [&] { kernels::spmm_t(ctx, a, x, out, ev); });
    const std::string w = "_f" + std::to_string(f);
    std::printf("F=%lld mlsys: spmm %.3f ms (%.2fx cuSPARSE best), spmm_t %.3f ms (%.2fx); hand kernel (edge ids) %.3f ms\n",
                static_cast<long long>(f), 1e3 * ours, ours / best, 1e3 * ours_t, ours_t / best_t, 1e3 * hand);
    result("cusparse_best_spmm_ms" + w, 1e3 * best, "ms");
    result("cusparse_best_spmm_t_ms" + w, 1e3 * best_t, "ms");
    result("hand_spmm_t_edge_ids_ms" + w, 1e3 * hand, "ms");
    // ratio = cuSPARSE / mlsys, so that "pass" means ratio >= 1 / 1.2.
    result("spmm_ms" + w, 1e3 * ours, "ms", best / ours, 1.0 / kTargetRatio);
    result("spmm_t_ms" + w, 1e3 * ours_t, "ms", best_t / ours_t, 1.0 / kTargetRatio);
  }
  return 0;
}
