#pragma once
// Shared helpers of the CUDA kernels: launch sizes, the context's stream and handles, index-type
// dispatch, and deterministic device-wide reductions (block sums, per-block partials, column sums).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "core/kernels/cuda/cuda_kernels.hpp"
#include "core/kernels/kernel_checks.hpp"
#include "core/tensor/cuda/cuda_runtime.hpp"

namespace mlsys::kernels::cuda {

using namespace detail;

constexpr int kThreads = 256;
inline unsigned blocks_for(int64_t n) {
  int64_t b = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(b < 1 ? 1 : (b > 65535 * 16 ? 65535 * 16 : b));
}
inline cudaStream_t stream_of(DeviceContext& ctx) { return static_cast<cudaStream_t>(ctx.stream()); }
inline cublasHandle_t blas_of(DeviceContext& ctx) { return static_cast<cublasHandle_t>(ctx.blas_handle()); }
inline void check_launch(const char* fn) { cudart::check_last(fn); }

#define MLSYS_GRID_STRIDE(i, n) \
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < (n); i += static_cast<int64_t>(blockDim.x) * gridDim.x)

// Calls fn(ptr) with the tensor's data as int32_t* or int64_t*.
template <class Fn>
void with_index(const Tensor& t, Fn&& fn) {
  if (t.dtype() == DType::i64) fn(t.data<int64_t>());
  else fn(t.data<int32_t>());
}

// ---------------- deterministic reductions ----------------
// Every sum below adds in an order fixed by the input's shape alone, never by timing as float atomics
// would, so a run repeats bit for bit. It differs from the host kernels' order only in rounding.

// Blocks of a grid-stride reduction over n items: about one resident wave on an H200 (132 SMs x 8
// blocks of kThreads), and few enough partials for one block to add them up.
constexpr unsigned kMaxReduceBlocks = 1024;
inline unsigned reduce_blocks_for(int64_t n) { return std::min(blocks_for(n), kMaxReduceBlocks); }

// Sum of v over the block, valid in thread 0. Every thread of a kThreads-block must call it (after,
// not inside, a loop some threads leave early). A fixed shuffle tree, hence deterministic.
template <class T>
__device__ T block_sum(T v) {
  constexpr unsigned kWarps = kThreads / 32;
  __shared__ T warp_sums[kWarps];
  for (unsigned o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  __syncthreads();  // an earlier call's readers are done with warp_sums
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  v = T{0};
  if (warp == 0) {
    if (lane < kWarps) v = warp_sums[lane];
    for (unsigned o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  }
  return v;
}

// totals[q] = sum over b, in a fixed order, of partials[q * blocks + b]; one block per q.
template <class T>
__global__ void sum_partials_kernel(const T* partials, unsigned blocks, T* totals) {
  const T* p = partials + static_cast<size_t>(blockIdx.x) * blocks;
  T acc{0};
  for (unsigned b = threadIdx.x; b < blocks; b += blockDim.x) acc += p[b];
  acc = block_sum(acc);
  if (threadIdx.x == 0) totals[blockIdx.x] = acc;
}

// K grid-wide sums of a kernel launched with blocks() blocks of kThreads: block b stores its block_sum
// of quantity q at ptr()[q * gridDim.x + b]; total() adds the partials up on the device in block
// order and reads the K totals back (synchronous). The block count depends on the input size only.
template <class T, int K = 1>
class BlockPartials {
 public:
  BlockPartials(DeviceContext& ctx, unsigned blocks)
      : ctx_(ctx), blocks_(blocks), scratch_(ctx, sizeof(T) * K * (static_cast<size_t>(blocks) + 1)) {}
  unsigned blocks() const { return blocks_; }
  T* ptr() const { return scratch_.as<T>(); }
  std::array<T, K> total() const {
    T* totals = ptr() + static_cast<size_t>(K) * blocks_;
    sum_partials_kernel<T><<<K, kThreads, 0, stream_of(ctx_)>>>(ptr(), blocks_, totals);
    check_launch("sum_partials");
    std::array<T, K> out{};
    cudaMemcpyAsync(out.data(), totals, sizeof(T) * K, cudaMemcpyDeviceToHost, stream_of(ctx_));
    cudart::synchronize(ctx_.stream());
    return out;
  }

 private:
  DeviceContext& ctx_;
  unsigned blocks_;
  DeviceContext::Scratch scratch_;
};

// Column reductions of an [n, f] input over the whole device. The rows are cut into chunks (their
// number a function of n and f only). Pass 1 runs a block per (tile of kColTile columns, chunk) and
// writes the chunk's sums per column to partials[q][chunk][col]; pass 2 is the same kernel over the
// partials as rows, in one chunk, and hands each column's totals to `finish`. In a block, a warp reads
// kColTile consecutive values of a row (coalesced); its kColLanes warps take every kColLanes-th row
// of the chunk, and their sums are added in lane order: a fixed order in both passes.
constexpr int kColTile = 32;
constexpr int kColLanes = kThreads / kColTile;
constexpr int64_t kMinChunkRows = 64;      // so a lane adds at least 8 rows
constexpr int64_t kMaxGridX = 65535 * 16;  // as blocks_for: blocks stride over more column tiles

struct ColumnChunks {
  int64_t rows = 0;     // rows per chunk
  unsigned chunks = 0;  // grid.y of pass 1 (<= kMaxReduceBlocks); 0 when n == 0
  unsigned tiles = 0;   // grid.x of both passes
};
inline ColumnChunks column_chunks(int64_t n, int64_t f) {
  ColumnChunks c;
  const int64_t tiles = (f + kColTile - 1) / kColTile;
  c.tiles = static_cast<unsigned>(std::clamp<int64_t>(tiles, 1, kMaxGridX));
  if (n <= 0 || f <= 0) return c;
  // Enough chunks that about kMaxReduceBlocks blocks work when the column tiles alone do not fill the device.
  const int64_t want = std::max<int64_t>(1, kMaxReduceBlocks / tiles);
  const int64_t chunks = std::min(want, (n + kMinChunkRows - 1) / kMinChunkRows);
  c.rows = (n + chunks - 1) / chunks;
  c.chunks = static_cast<unsigned>((n + c.rows - 1) / c.rows);
  return c;
}

// Term: `__device__ void operator()(int64_t r, int64_t j, T (&acc)[K]) const` adds element (r, j)'s
// contributions to the K sums of column j. Store: `__device__ void operator()(unsigned chunk, int64_t j,
// const T (&sum)[K]) const` takes column j's sums over chunk blockIdx.y (rows [chunk * chunk_rows, ...)).
template <class T, int K, class Term, class Store>
__global__ void column_sums_kernel(Term term, int64_t n, int64_t f, int64_t chunk_rows, Store store) {
  __shared__ T lanes[K][kColLanes][kColTile];
  const unsigned tx = threadIdx.x % kColTile, ty = threadIdx.x / kColTile;
  const int64_t r0 = blockIdx.y * chunk_rows, r1 = min(n, r0 + chunk_rows);
  const int64_t tiles = (f + kColTile - 1) / kColTile;
  for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const int64_t j = tile * kColTile + tx;
    T acc[K] = {};
    if (j < f)
      for (int64_t r = r0 + ty; r < r1; r += kColLanes) term(r, j, acc);
    for (int q = 0; q < K; ++q) lanes[q][ty][tx] = acc[q];
    __syncthreads();
    if (ty == 0 && j < f) {
      for (int q = 0; q < K; ++q)
        for (int y = 1; y < kColLanes; ++y) acc[q] += lanes[q][y][tx];
      store(blockIdx.y, j, acc);
    }
    __syncthreads();  // lanes is rewritten for the next tile
  }
}

// Pass 1's store and pass 2's term: partials[q][chunk][col] of `chunks` chunks.
template <class T, int K>
struct StorePartials {
  T* partials;
  unsigned chunks;
  int64_t f;
  __device__ void operator()(unsigned chunk, int64_t j, const T (&sum)[K]) const {
    for (int q = 0; q < K; ++q) partials[(static_cast<int64_t>(q) * chunks + chunk) * f + j] = sum[q];
  }
};
template <class T, int K>
struct AddPartials {
  const T* partials;
  unsigned chunks;
  int64_t f;
  __device__ void operator()(int64_t chunk, int64_t j, T (&acc)[K]) const {
    for (int q = 0; q < K; ++q) acc[q] += partials[(static_cast<int64_t>(q) * chunks + chunk) * f + j];
  }
};
// Finish: `__device__ void operator()(int64_t j, const T (&sum)[K]) const` stores column j's totals.
template <class T, int K, class Finish>
struct ColumnFinish {
  Finish finish;
  __device__ void operator()(unsigned, int64_t j, const T (&sum)[K]) const { finish(j, sum); }
};

// Runs both passes on ctx's stream; with n == 0 every column's sums are 0 (finish still runs).
template <class T, int K, class Term, class Finish>
void column_reduce(DeviceContext& ctx, int64_t n, int64_t f, Term term, Finish finish, const char* name) {
  if (f <= 0) return;
  const ColumnChunks c = column_chunks(n, f);
  DeviceContext::Scratch partials(ctx, sizeof(T) * K * c.chunks * static_cast<size_t>(f));
  T* p = partials.as<T>();
  if (c.chunks > 0)
    column_sums_kernel<T, K><<<dim3(c.tiles, c.chunks), kThreads, 0, stream_of(ctx)>>>(
        term, n, f, c.rows, StorePartials<T, K>{p, c.chunks, f});
  const int64_t rows = c.chunks;  // pass 2: the partials are the rows, all in one chunk
  column_sums_kernel<T, K><<<c.tiles, kThreads, 0, stream_of(ctx)>>>(AddPartials<T, K>{p, c.chunks, f}, rows, f, rows,
                                                                      ColumnFinish<T, K, Finish>{finish});
  check_launch(name);
}

// The plain column term: x [n, f] row-major.
struct ColumnOf {
  const float* x;
  int64_t f;
  __device__ void operator()(int64_t r, int64_t j, float (&acc)[1]) const { acc[0] += x[r * f + j]; }
};

}  // namespace mlsys::kernels::cuda
