// The nccl backend: one GPU per process, buffers in device memory (memory() == cuda). This file is
// the plugin libmlsys_nccl.so: its entry point registers the communicator with the core
// (comm::register_plugin_communicator), which loads the plugin the first time comm.backend nccl
// is asked for. All work is enqueued on the communicator's own CUDA stream, after everything
// already queued on the device's blocking streams (a DeviceContext's compute stream), so the
// buffers a kernel just wrote are complete; a Request is a CUDA event that wait() polls together
// with ncclCommGetAsyncError, so a dead peer ends in an error after comm.timeout_s (the
// communicator is aborted with ncclCommAbort) instead of a hang. The ncclUniqueId comes from
// rank 0 over MPI when running under mpirun, else through a file in comm.nccl_id_dir (single
// node without MPI: rank and size from MLSYS_RANK / MLSYS_WORLD_SIZE).
#include <cuda_runtime_api.h>
#include <nccl.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <thread>

#include "core/comm/backend.hpp"
#include "core/comm/backends.hpp"
#include "core/comm/comm_error.hpp"
#include "core/process/system.hpp"
#include "core/tensor/plugin.hpp"

namespace mlsys::comm::detail {
namespace {

using Clock = std::chrono::steady_clock;

void cuda_check(cudaError_t e, const std::string& what) {
  if (e == cudaSuccess) return;
  // A failed call also leaves its error as the thread's "last error"; taken here, so that the
  // next kernel launch check does not report it as its own.
  (void)cudaGetLastError();
  throw CommError("nccl backend: " + what + ": " + cudaGetErrorString(e));
}

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v ? std::atoi(v) : fallback;
}

ncclDataType_t nccl_type(DType t) {
  switch (t) {
    case DType::u8:
      return ncclUint8;
    case DType::i32:
      return ncclInt32;
    case DType::i64:
      return ncclInt64;
    case DType::f16:
      return ncclFloat16;
    case DType::bf16:
      return ncclBfloat16;
    case DType::f32:
      return ncclFloat32;
    case DType::f64:
      return ncclFloat64;
  }
  return ncclUint8;
}

ncclRedOp_t nccl_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum:
      return ncclSum;
    case ReduceOp::max:
      return ncclMax;
    case ReduceOp::min:
      return ncclMin;
  }
  return ncclSum;
}

// The unique id through a file: rank 0 writes it atomically, the others poll until it appears.
ncclUniqueId id_from_file(const CommOptions& o, int rank, double timeout_s) {
  if (o.nccl_id_dir.empty())
    throw ConfigError(
        "comm.backend nccl without mpirun needs comm.nccl_id_dir (a folder all ranks can read) to exchange the "
        "NCCL unique id; or start the ranks with mpirun");
  const char* job = std::getenv("MLSYS_JOB_ID");
  std::filesystem::path file = std::filesystem::path(o.nccl_id_dir) / ("nccl_id." + std::string(job ? job : "default"));
  ncclUniqueId id;
  if (rank == 0) {
    if (ncclGetUniqueId(&id) != ncclSuccess) throw CommError("nccl backend: ncclGetUniqueId failed");
    std::filesystem::create_directories(o.nccl_id_dir);
    auto tmp = file;
    tmp += ".tmp";
    {
      std::ofstream f(tmp, std::ios::binary);
      f.write(reinterpret_cast<const char*>(&id), sizeof id);
      if (!f) throw CommError("nccl backend: cannot write " + tmp.string());
    }
    std::filesystem::rename(tmp, file);
    return id;
  }
  auto deadline = Clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    std::ifstream f(file, std::ios::binary);
    if (f && f.read(reinterpret_cast<char*>(&id), sizeof id)) return id;
    if (Clock::now() > deadline)
      throw CommTimeoutError("rank " + std::to_string(rank) + " (nccl): no NCCL id appeared in " + file.string() +
                             " within comm.timeout_s; is rank 0 running with the same comm.nccl_id_dir and "
                             "MLSYS_JOB_ID? (delete stale nccl_id.* files between runs)");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// Polls a CUDA event (and NCCL's async error) until done or comm.timeout_s.
class EventWaiter {
 public:
  EventWaiter(ncclComm_t comm, std::string op, std::string who, double timeout)
      : comm_(comm), op_(std::move(op)), who_(std::move(who)), timeout_(timeout) {}
  bool done(cudaEvent_t ev) const {
    ncclResult_t async = ncclSuccess;
    ncclCommGetAsyncError(comm_, &async);
    if (async != ncclSuccess && async != ncclInProgress)
      throw CommError(who_ + ": " + op_ + " failed in NCCL: " + ncclGetErrorString(async));
    cudaError_t e = cudaEventQuery(ev);
    if (e == cudaErrorNotReady) return false;
    cuda_check(e, who_ + ": " + op_);
    return true;
  }
  void wait(cudaEvent_t ev) const {
    auto deadline = Clock::now() + std::chrono::duration<double>(timeout_);
    while (!done(ev)) {
      if (Clock::now() > deadline) {
        ncclCommAbort(comm_);
        throw CommTimeoutError(who_ + ": " + op_ + " timed out after " + seconds_text(timeout_) +
                               " (a peer may have died or called a different collective); the NCCL communicator "
                               "was aborted");
      }
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
  }

 private:
  ncclComm_t comm_;
  std::string op_, who_;
  double timeout_;
};

class NcclState final : public Request::State {
 public:
  NcclState(cudaEvent_t ev, EventWaiter waiter) : ev_(ev), waiter_(std::move(waiter)) {}
  ~NcclState() override { cudaEventDestroy(ev_); }
  bool test() override { return waiter_.done(ev_); }
  void wait() override { waiter_.wait(ev_); }

 private:
  cudaEvent_t ev_;
  EventWaiter waiter_;
};

// NCCL has no tags and a send blocks its stream until the peer receives, so point-to-point
// operations are collected and issued together (one ncclGroupStart/End) when any of them is
// waited on or the next collective starts: a ring of isend + irecv then cannot deadlock.
struct P2pBatch {
  std::vector<std::function<ncclResult_t()>> ops;
  cudaEvent_t ev = nullptr;
  bool issued = false;
  ~P2pBatch() {
    if (ev) cudaEventDestroy(ev);
  }
};

class NcclCommunicator;

class P2pState final : public Request::State {
 public:
  P2pState(NcclCommunicator* comm, std::shared_ptr<P2pBatch> batch, EventWaiter waiter)
      : comm_(comm), batch_(std::move(batch)), waiter_(std::move(waiter)) {}
  bool test() override;
  void wait() override;

 private:
  NcclCommunicator* comm_;
  std::shared_ptr<P2pBatch> batch_;
  EventWaiter waiter_;
};

class NcclCommunicator final : public Communicator {
 public:
  NcclCommunicator(const CommOptions& o, int device) : Communicator(o.timeout_s) {
    ncclUniqueId id;
#ifdef MLSYS_WITH_MPI
    if (launched_by_mpi_launcher()) {
      mpi_init(o.timeout_s);
      rank_ = mpi_world_rank();
      size_ = mpi_world_size();
      if (device < 0) device = mpi_local_rank();
      if (rank_ == 0 && ncclGetUniqueId(&id) != ncclSuccess) throw CommError("nccl backend: ncclGetUniqueId failed");
      mpi_broadcast_bytes(&id, sizeof id, 0, o.timeout_s);
    } else
#endif
    {
      rank_ = env_int("MLSYS_RANK", 0);
      size_ = env_int("MLSYS_WORLD_SIZE", 1);
      if (rank_ < 0 || rank_ >= size_)
        throw ConfigError("nccl backend: MLSYS_RANK=" + std::to_string(rank_) +
                          " is outside MLSYS_WORLD_SIZE=" + std::to_string(size_));
      if (device < 0) device = env_int("MLSYS_LOCAL_RANK", rank_);
      if (size_ > 1)
        id = id_from_file(o, rank_, o.timeout_s);
      else if (ncclGetUniqueId(&id) != ncclSuccess)
        throw CommError("nccl backend: ncclGetUniqueId failed");
    }
    int count = 0;
    cuda_check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
    if (count == 0) throw CommError("nccl backend: no CUDA device visible to rank " + std::to_string(rank_));
    device_ = device % count;
    cuda_check(cudaSetDevice(device_), "cudaSetDevice");
    cuda_check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    // Non-blocking init, so that a missing peer ends in a timeout too.
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 0;
    ncclResult_t r = ncclCommInitRankConfig(&comm_, size_, id, rank_, &config);
    auto deadline = Clock::now() + std::chrono::duration<double>(o.timeout_s);
    while (r == ncclInProgress || r == ncclSuccess) {
      ncclResult_t state = ncclSuccess;
      ncclCommGetAsyncError(comm_, &state);
      if (state == ncclSuccess) break;
      if (state != ncclInProgress) {
        r = state;
        break;
      }
      if (Clock::now() > deadline) {
        ncclCommAbort(comm_);
        throw CommTimeoutError(who() + ": NCCL initialization timed out after comm.timeout_s (are all " +
                               std::to_string(size_) + " ranks started?)");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    if (r != ncclSuccess && r != ncclInProgress)
      throw CommError(who() + ": ncclCommInitRank failed: " + ncclGetErrorString(r));
    cuda_check(cudaMalloc(&scratch_, 64), "cudaMalloc");
    cuda_check(cudaEventCreateWithFlags(&produced_, cudaEventDisableTiming), "cudaEventCreate");
  }
  ~NcclCommunicator() override {
    if (comm_) ncclCommDestroy(comm_);
    if (scratch_) cudaFree(scratch_);
    if (staging_) cudaFree(staging_);
    if (produced_) cudaEventDestroy(produced_);
    if (stream_) cudaStreamDestroy(stream_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::string backend() const override { return "nccl"; }
  Memory memory() const override { return Memory::cuda; }
  bool accepts(const Device& d) const override { return d.is_cuda() && d.index == device_; }
  void flush_if_pending(const std::shared_ptr<P2pBatch>& b) {
    if (!b->issued) flush_p2p();
  }

 protected:
  // Orders the next NCCL work after everything already queued on the device's blocking streams
  // (the compute streams of DeviceContexts): the legacy default stream waits for all of them, so
  // an event recorded on it completes when the buffers they write are done.
  void after_queued_work() {
    cuda_check(cudaEventRecord(produced_, cudaStreamLegacy), "ordering after queued kernels");
    cuda_check(cudaStreamWaitEvent(stream_, produced_, 0), "ordering after queued kernels");
  }
  // Runs `enqueue` (NCCL calls on stream_) and returns a request on an event recorded after it.
  // Issues the collected point-to-point operations as one group.
  void flush_p2p() {
    if (batch_->ops.empty()) return;
    after_queued_work();
    auto batch = batch_;
    batch_ = std::make_shared<P2pBatch>();
    ncclGroupStart();
    for (auto& op : batch->ops) op();
    ncclResult_t r = ncclGroupEnd();
    batch->issued = true;
    if (r != ncclSuccess && r != ncclInProgress)
      throw CommError(who() + ": send/recv group failed: " + ncclGetErrorString(r));
    cuda_check(cudaEventCreateWithFlags(&batch->ev, cudaEventDisableTiming), "send/recv");
    cuda_check(cudaEventRecord(batch->ev, stream_), "send/recv");
  }
  template <class Fn>
  Request run(const std::string& op, uint64_t bytes_sent, Fn&& enqueue) {
    flush_p2p();  // point-to-point operations started before this collective go first
    after_queued_work();
    ncclResult_t r = enqueue();
    if (r != ncclSuccess && r != ncclInProgress)
      throw CommError(who() + ": " + op + " failed: " + ncclGetErrorString(r));
    cudaEvent_t ev;
    cuda_check(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), op);
    cuda_check(cudaEventRecord(ev, stream_), op);
    CommStats d;
    d.bytes_sent = bytes_sent;
    add_stats(d);
    return Request(std::make_shared<NcclState>(ev, EventWaiter(comm_, op, who(), timeout_s())), op);
  }
  Request p2p(const std::string& op, uint64_t bytes_sent, std::function<ncclResult_t()> fn) {
    batch_->ops.push_back(std::move(fn));
    CommStats d;
    d.bytes_sent = bytes_sent;
    add_stats(d);
    return Request(std::make_shared<P2pState>(this, batch_, EventWaiter(comm_, op, who(), timeout_s())), op);
  }
  // NCCL takes device memory only: small host buffers (counts, single values) travel through a
  // device buffer of the communicator's own, grown as needed.
  void on_host_buffers(const void* in, size_t in_bytes, void* out, size_t out_bytes,
                       const std::function<void(const void*, void*)>& op) override {
    std::lock_guard<std::mutex> lock(staging_mu_);
    const bool in_place = in == out;
    const size_t out_off = in_place ? 0 : (in_bytes + 255) / 256 * 256;
    const size_t need = std::max<size_t>(out_off + std::max(out_bytes, in_place ? in_bytes : size_t(0)), 1);
    if (need > staging_bytes_) {
      cuda_check(cudaSetDevice(device_), "cudaSetDevice");
      if (staging_) cuda_check(cudaFree(staging_), "cudaFree (host-value staging)");
      staging_ = nullptr;
      staging_bytes_ = 0;
      cuda_check(cudaMalloc(&staging_, need), "cudaMalloc (host-value staging)");
      staging_bytes_ = need;
    }
    auto* dev = static_cast<uint8_t*>(staging_);
    if (in_bytes) cuda_check(cudaMemcpy(dev, in, in_bytes, cudaMemcpyHostToDevice), "copying host values to the GPU");
    op(dev, dev + out_off);
    if (out_bytes)
      cuda_check(cudaMemcpy(out, dev + out_off, out_bytes, cudaMemcpyDeviceToHost), "copying host values back");
  }
  void copy_self(const void* src, void* dst, size_t bytes) {
    if (bytes && src != dst) cuda_check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, stream_), "copy");
  }

  Request do_isend(const void* data, size_t bytes, int dst, int) override {
    // NCCL has no tags: point-to-point messages between a pair match in issue order.
    return p2p("send to rank " + std::to_string(dst), bytes,
               [=, this] { return ncclSend(data, bytes, ncclUint8, dst, comm_, stream_); });
  }
  Request do_irecv(void* data, size_t bytes, int src, int) override {
    return p2p("recv from rank " + std::to_string(src), 0,
               [=, this] { return ncclRecv(data, bytes, ncclUint8, src, comm_, stream_); });
  }
  Request do_ibroadcast(void* data, size_t bytes, int root) override {
    return run("broadcast from rank " + std::to_string(root), rank_ == root ? bytes * size_t(size_ - 1) : 0,
               [&] { return ncclBroadcast(data, data, bytes, ncclUint8, root, comm_, stream_); });
  }
  Request do_iall_reduce(void* data, size_t count, DType dtype, ReduceOp op) override {
    uint64_t bytes = count * dtype_size(dtype);
    return run(std::string("all_reduce ") + to_string(op),
               size_ > 1 ? 2 * bytes * uint64_t(size_ - 1) / uint64_t(size_) : 0,
               [&] { return ncclAllReduce(data, data, count, nccl_type(dtype), nccl_op(op), comm_, stream_); });
  }
  Request do_iall_gather_v(const void* send, std::span<const size_t> recv_bytes, void* recv) override {
    std::vector<size_t> off(size_t(size_) + 1, 0);
    for (int p = 0; p < size_; ++p) off[size_t(p) + 1] = off[size_t(p)] + recv_bytes[size_t(p)];
    auto* out = static_cast<uint8_t*>(recv);
    size_t mine = recv_bytes[size_t(rank_)];
    return run("all_gather", mine * size_t(size_ - 1), [&] {
      copy_self(send, out + off[size_t(rank_)], mine);
      ncclGroupStart();
      for (int p = 0; p < size_; ++p) {
        if (p == rank_) continue;
        if (mine) ncclSend(send, mine, ncclUint8, p, comm_, stream_);
        if (recv_bytes[size_t(p)]) ncclRecv(out + off[size_t(p)], recv_bytes[size_t(p)], ncclUint8, p, comm_, stream_);
      }
      return ncclGroupEnd();
    });
  }
  Request do_igather(const void* send, size_t bytes, void* recv, int root) override {
    auto* out = static_cast<uint8_t*>(recv);
    return run("gather to rank " + std::to_string(root), rank_ == root ? 0 : bytes, [&] {
      if (rank_ != root) return ncclSend(send, bytes, ncclUint8, root, comm_, stream_);
      copy_self(send, out + size_t(rank_) * bytes, bytes);
      ncclGroupStart();
      for (int p = 0; p < size_; ++p)
        if (p != rank_) ncclRecv(out + size_t(p) * bytes, bytes, ncclUint8, p, comm_, stream_);
      return ncclGroupEnd();
    });
  }
  Request do_iall_to_all_v(const void* send, std::span<const size_t> send_bytes, void* recv,
                           std::span<const size_t> recv_bytes) override {
    const size_t n = size_t(size_), me = size_t(rank_);
    if (send_bytes[me] != recv_bytes[me]) throw CommError(who() + ": all_to_all_v self block sizes differ");
    std::vector<size_t> so(n + 1, 0), ro(n + 1, 0);
    uint64_t sent = 0;
    for (size_t p = 0; p < n; ++p) {
      so[p + 1] = so[p] + send_bytes[p];
      ro[p + 1] = ro[p] + recv_bytes[p];
      if (p != me) sent += send_bytes[p];
    }
    auto* in = static_cast<const uint8_t*>(send);
    auto* out = static_cast<uint8_t*>(recv);
    return run("all_to_all_v", sent, [&] {
      copy_self(in + so[me], out + ro[me], send_bytes[me]);
      ncclGroupStart();
      for (size_t p = 0; p < n; ++p) {
        if (p == me) continue;
        // Empty blocks are skipped on both sides (rank p's send to q has q's recv size from p).
        if (send_bytes[p]) ncclSend(in + so[p], send_bytes[p], ncclUint8, int(p), comm_, stream_);
        if (recv_bytes[p]) ncclRecv(out + ro[p], recv_bytes[p], ncclUint8, int(p), comm_, stream_);
      }
      return ncclGroupEnd();
    });
  }
  Request do_ibarrier() override {
    return run("barrier", 0, [&] { return ncclAllReduce(scratch_, scratch_, 1, ncclInt32, ncclSum, comm_, stream_); });
  }

 private:
  int rank_ = 0, size_ = 1, device_ = 0;
  ncclComm_t comm_ = nullptr;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t produced_ = nullptr;
  void* scratch_ = nullptr;
  std::mutex staging_mu_;
  void* staging_ = nullptr;  // see on_host_buffers
  size_t staging_bytes_ = 0;
  std::shared_ptr<P2pBatch> batch_ = std::make_shared<P2pBatch>();
};

bool P2pState::test() {
  comm_->flush_if_pending(batch_);
  return waiter_.done(batch_->ev);
}

void P2pState::wait() {
  comm_->flush_if_pending(batch_);
  waiter_.wait(batch_->ev);
}

}  // namespace
}  // namespace mlsys::comm::detail

extern "C" __attribute__((visibility("default"))) const char* mlsys_plugin_init(int abi) {
  using namespace mlsys;
  if (abi != plugin::kPluginAbi)
    return "libmlsys_nccl.so was built for another mlsys (plugin ABI mismatch): rebuild it with this mlsys";
  int v = 0;
  if (ncclGetVersion(&v) != ncclSuccess) return "library missing: libnccl does not answer ncclGetVersion";
  std::string version = "NCCL " + std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
                        std::to_string(v % 100);
  comm::register_plugin_communicator(
      "nccl",
      [](const CommOptions& o, int device) -> std::unique_ptr<comm::Communicator> {
        return std::make_unique<comm::detail::NcclCommunicator>(o, device);
      },
      version);
  return nullptr;
}
