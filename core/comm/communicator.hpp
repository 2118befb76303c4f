#pragma once
// Communicator: the one interface every backend (inproc threads, MPI, NCCL) implements. Buffers are
// raw typed memory (pointer + byte or element count); accepts(device) says whether this backend
// takes pointers to that device's memory (inproc and mpi: host; nccl: its GPU). Callers and the
// quantized collectives stage through host memory exactly when it does not (tensor_ops.hpp).
//
// Semantics follow MPI: every rank calls the same collectives in the same order. Each blocking
// call has an asynchronous twin (i<name>) returning a Request; the buffers must stay alive and
// untouched until Request::wait() returns, and computation can run in between (overlap).
// No silent hangs: every wait ends after comm.timeout_s with mlsys::Error naming the rank and the
// operation; when one rank fails (throws, times out), the others fail within the timeout too. Once
// an operation of a communicator has failed, every later wait on it fails at once (naming the
// first failure), so requests still pending when the error unwinds do not each wait a timeout.
//
//   comm::run_inproc(4, opts, [&](comm::Communicator& c) {
//     std::vector<float> g(n, float(c.rank()));
//     auto req = c.iall_reduce(std::span<float>(g));  // start
//     do_other_work();                                // overlaps
//     req.wait();                                     // g = sum over ranks
//   });
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "core/tensor/device.hpp"
#include "core/tensor/dtype.hpp"

namespace mlsys::comm {

// Buffers are typed with the project's one DType (core/tensor/dtype.hpp); dtype_of<T> maps a C++
// element type to it. The using-declaration keeps `comm::DType` spellings compiling.
using mlsys::DType;

enum class ReduceOp { sum, max, min };
const char* to_string(ReduceOp op);

enum class Memory { host, cuda };

// Urgency of an operation's messages (Communicator::set_priority): higher goes first where a
// backend schedules a modeled link (inproc with comm.link_sleep, comm.link_schedule).
inline constexpr int kPriorityNormal = 0;  // can wait (e.g. a pipelined halo used an epoch later)
inline constexpr int kPriorityUrgent = 1;  // a rank waits on it now (e.g. the gradient all-reduce)

// Per-communicator counters (this rank's view). Modeled time is never mixed with measured time.
struct CommStats {
  uint64_t ops = 0;            // communication calls started
  uint64_t messages = 0;       // point-to-point messages this rank sent (backend-level)
  uint64_t bytes_sent = 0;     // bytes this rank sent, all operations
  uint64_t raw_bytes = 0;      // quantized ops: fp32 bytes this rank would have sent
  uint64_t wire_bytes = 0;     // quantized ops: encoded bytes this rank actually sent
  double wait_seconds = 0;     // measured: wall time blocked inside wait()
  double modeled_seconds = 0;  // MODELED (link model): latency + bytes / bandwidth of sent messages
};

// Handle of an asynchronous operation. Copyable (shared state); wait() may be called more than
// once. The last copy of a request that was never waited waits in its destructor (errors are
// logged), so buffers are never written after they go out of scope.
class Request {
 public:
  class State {
   public:
    virtual ~State() = default;
    virtual bool test() = 0;  // non-blocking: finished (successfully or not)?
    virtual void wait() = 0;  // blocks until finished; throws on failure/timeout
    // The request is given up without completing (an earlier operation failed): an operation whose
    // peers read this rank's memory must make sure they stopped before the memory goes.
    virtual void abandoned() {}
  };

  Request() = default;  // an already complete request
  explicit Request(std::shared_ptr<State> state, std::string what = "");
  ~Request();
  Request(const Request&) = default;
  Request& operator=(const Request&) = default;
  Request(Request&&) = default;
  Request& operator=(Request&&) = default;

  void wait();
  bool test();
  bool done() const;  // wait() already returned
  // Runs `fn` on the waiting thread right after the operation completes (e.g. decode).
  Request& then(std::function<void()> fn);

  // Waits for every request; rethrows the first failure after all were waited.
  static void wait_all(std::vector<Request>& reqs);

  // Marks the request failed with `error` without waiting for it, so that neither wait() nor the
  // destructor blocks on it. Only for an operation whose communicator already failed (the group is
  // aborted, or the MPI job ends): waiting would cost one more timeout per pending request.
  void abandon(std::exception_ptr error);

 private:
  struct Shared;
  std::shared_ptr<Shared> shared_;
};

class Communicator {
 public:
  virtual ~Communicator();

  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual std::string backend() const = 0;  // "inproc" | "mpi" | "nccl"
  virtual Memory memory() const { return Memory::host; }
  // The capability that decides host staging: whether the operations take pointers to memory of
  // device `d` (default: from memory(), host or CUDA device memory).
  virtual bool accepts(const Device& d) const { return memory() == Memory::cuda ? d.is_cuda() : d.is_cpu(); }
  double timeout_s() const { return timeout_s_; }

  // ---- blocking operations (byte / element counts; see the typed helpers below) ----
  void send(const void* data, size_t bytes, int dst, int tag = 0) { isend(data, bytes, dst, tag).wait(); }
  void recv(void* data, size_t bytes, int src, int tag = 0) { irecv(data, bytes, src, tag).wait(); }
  // root's `bytes` at `data` are copied into every rank's `data`.
  void broadcast(void* data, size_t bytes, int root) { ibroadcast(data, bytes, root).wait(); }
  // In place: data[i] = op over ranks of data[i]. Same result bit for bit on every rank.
  void all_reduce(void* data, size_t count, DType dtype, ReduceOp op = ReduceOp::sum) {
    iall_reduce(data, count, dtype, op).wait();
  }
  // recv (size() * bytes) = every rank's `bytes` in rank order.
  void all_gather(const void* send, size_t bytes, void* recv) { iall_gather(send, bytes, recv).wait(); }
  // Variable sizes: rank r contributes recv_bytes[r] (its own `send`), stored contiguously in rank order.
  void all_gather_v(const void* send, std::span<const size_t> recv_bytes, void* recv) {
    iall_gather_v(send, recv_bytes, recv).wait();
  }
  // root receives every rank's `bytes` in rank order into recv (size() * bytes); recv unused elsewhere.
  void gather(const void* send, size_t bytes, void* recv, int root) { igather(send, bytes, recv, root).wait(); }
  // send holds size() contiguous blocks (send_bytes[p] to rank p, in rank order); recv likewise
  // (recv_bytes[p] from rank p). recv_bytes[p] must equal rank p's send_bytes[rank()].
  void all_to_all_v(const void* send, std::span<const size_t> send_bytes, void* recv,
                    std::span<const size_t> recv_bytes) {
    iall_to_all_v(send, send_bytes, recv, recv_bytes).wait();
  }
  void barrier() { ibarrier().wait(); }

  // ---- asynchronous twins ----
  Request isend(const void* data, size_t bytes, int dst, int tag = 0);
  Request irecv(void* data, size_t bytes, int src, int tag = 0);
  Request ibroadcast(void* data, size_t bytes, int root);
  Request iall_reduce(void* data, size_t count, DType dtype, ReduceOp op = ReduceOp::sum);
  Request iall_gather(const void* send, size_t bytes, void* recv);
  Request iall_gather_v(const void* send, std::span<const size_t> recv_bytes, void* recv);
  Request igather(const void* send, size_t bytes, void* recv, int root);
  Request iall_to_all_v(const void* send, std::span<const size_t> send_bytes, void* recv,
                        std::span<const size_t> recv_bytes);
  Request ibarrier();

  // ---- typed helpers (counts in elements) ----
  template <class T>
  void broadcast(std::span<T> data, int root) {
    broadcast(data.data(), data.size_bytes(), root);
  }
  template <class T>
  void all_reduce(std::span<T> data, ReduceOp op = ReduceOp::sum) {
    all_reduce(data.data(), data.size(), dtype_of<std::remove_const_t<T>>, op);
  }
  template <class T>
  Request iall_reduce(std::span<T> data, ReduceOp op = ReduceOp::sum) {
    return iall_reduce(data.data(), data.size(), dtype_of<std::remove_const_t<T>>, op);
  }
  // One host value from every rank (any backend: see on_host_buffers).
  template <class T>
  T all_reduce_value(T v, ReduceOp op = ReduceOp::sum) {
    on_host_buffers(&v, sizeof(T), &v, sizeof(T), [&](const void*, void* out) { all_reduce(out, 1, dtype_of<T>, op); });
    return v;
  }
  template <class T>
  std::vector<T> all_gather_value(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    std::vector<T> out(static_cast<size_t>(size()));
    on_host_buffers(&v, sizeof(T), out.data(), out.size() * sizeof(T),
                    [&](const void* in, void* o) { all_gather(in, sizeof(T), o); });
    return out;
  }
  // Element counts; recv must hold sum(recv_counts) elements.
  template <class T>
  void all_to_all_v(std::span<const T> send, std::span<const size_t> send_counts, std::span<T> recv,
                    std::span<const size_t> recv_counts) {
    iall_to_all_v(send, send_counts, recv, recv_counts).wait();
  }
  template <class T>
  Request iall_to_all_v(std::span<const T> send, std::span<const size_t> send_counts, std::span<T> recv,
                        std::span<const size_t> recv_counts) {
    auto sb = scaled(send_counts, sizeof(T)), rb = scaled(recv_counts, sizeof(T));
    check_fits(sum(sb), send.size_bytes(), "all_to_all_v send");
    check_fits(sum(rb), recv.size_bytes(), "all_to_all_v recv");
    return iall_to_all_v(send.data(), sb, recv.data(), rb);
  }
  // Tells every rank how much every other rank will send it: returns recv_counts for all_to_all_v.
  std::vector<size_t> exchange_counts(std::span<const size_t> send_counts);

  // ---- message priority ----
  // Urgency of the operations this rank starts from now on (default kPriorityNormal). A backend
  // that schedules a modeled link carries more urgent messages first; the others (MPI, NCCL)
  // ignore it. Only timing depends on it, never results.
  void set_priority(int p) { priority_ = p; }
  int priority() const { return priority_; }

  // ---- failure ----
  // True once a wait of this communicator failed (timeout, peer failure); failure() is its message.
  bool failed() const;
  std::string failure() const;

  // ---- counters ----
  CommStats stats() const;
  void reset_stats();
  // Quantized collectives and backends add to the counters through this.
  void add_stats(const CommStats& delta);

 protected:
  explicit Communicator(double timeout_s) : timeout_s_(timeout_s) {}

  // Backends implement the asynchronous operations; arguments are already validated (peer ranks
  // in range, span lengths == size()). The public wrappers count ops and measure wait time.
  virtual Request do_isend(const void* data, size_t bytes, int dst, int tag) = 0;
  virtual Request do_irecv(void* data, size_t bytes, int src, int tag) = 0;
  virtual Request do_ibroadcast(void* data, size_t bytes, int root) = 0;
  virtual Request do_iall_reduce(void* data, size_t count, DType dtype, ReduceOp op) = 0;
  virtual Request do_iall_gather_v(const void* send, std::span<const size_t> recv_bytes, void* recv) = 0;
  virtual Request do_igather(const void* send, size_t bytes, void* recv, int root) = 0;
  virtual Request do_iall_to_all_v(const void* send, std::span<const size_t> send_bytes, void* recv,
                                   std::span<const size_t> recv_bytes) = 0;
  virtual Request do_ibarrier() = 0;
  // Runs the blocking `op(in, out)` on buffers this backend takes, for small host buffers (counts,
  // single values): host backends pass `in` and `out` as they are; a backend that takes only
  // device memory (nccl) copies `in` to a device buffer of its own, runs `op` on device pointers
  // and copies `out_bytes` back. `in == out` is an in-place operation.
  virtual void on_host_buffers(const void* in, size_t in_bytes, void* out, size_t out_bytes,
                               const std::function<void(const void* in, void* out)>& op) {
    (void)in_bytes, (void)out_bytes;
    op(in, out);
  }

  // "rank 2 of 4 (inproc)" for error messages.
  std::string who() const;
  void check_peer(int peer, const char* op) const;
  void check_counts(std::span<const size_t> counts, const char* op) const;
  static std::vector<size_t> scaled(std::span<const size_t> counts, size_t factor);
  static size_t sum(std::span<const size_t> counts);
  static void check_fits(size_t need, size_t have, const char* what);
  Request timed(Request r);  // adds wait time to the counters

 private:
  friend class TimedRequestState;
  void mark_failed(const std::string& why);

  double timeout_s_;
  int priority_ = kPriorityNormal;  // used by the rank's own thread only
  mutable std::mutex stats_mu_;
  CommStats stats_;
  std::string failure_;  // guarded by stats_mu_
  bool failed_ = false;
};

// One line for logs and ctx.say: ops, bytes, quantized raw -> wire volume, measured wait time and,
// labelled MODELED, the link-model time (never added to measured time).
std::string describe(const CommStats& s);

// Element-wise reduction used by host backends (and tests): acc[i] = op(acc[i], in[i]).
void reduce_into(void* acc, const void* in, size_t count, DType dtype, ReduceOp op);

}  // namespace mlsys::comm
