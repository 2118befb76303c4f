// The mpi backend: one rank per process (mpirun -np N). Every operation is a non-blocking MPI
// call; wait() polls it so that it can give up after comm.timeout_s with a message naming the rank
// and operation (a blocking MPI call would hang forever when a peer is gone). After a failure the
// process aborts the MPI job at exit instead of finalizing, so no rank is left hanging.
#define OMPI_SKIP_MPICXX 1  // C API only (MPI::MPI_C links no C++ bindings)
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <chrono>
#include <climits>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#include "core/comm/backends.hpp"
#include "core/comm/comm_error.hpp"
#include "core/comm/comm_options.hpp"
#include "core/comm/link_model.hpp"
#include "core/process/system.hpp"

namespace mlsys::comm::detail {
namespace {

bool g_failed = false;

// Initializes MPI on first use; finalizes it (or aborts the job after a failure) at exit.
// MPI_Init_thread returns only when every process of the job has started MPI, so a rank that
// stalls or dies before it would leave the others waiting forever: a watchdog ends this process
// after comm.timeout_s with one error naming the rank and the operation (mpirun then ends the job).
struct MpiRuntime {
  bool owned = false;
  explicit MpiRuntime(double timeout_s) {
    int init = 0;
    MPI_Initialized(&init);
    if (init) return;
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
    std::thread watchdog([&] {
      std::unique_lock<std::mutex> lock(mu);
      if (cv.wait_for(lock, std::chrono::duration<double>(timeout_s), [&] { return done; })) return;
      std::fprintf(stderr,
                   "mlsys: error: rank %d of %d (mpi): MPI initialization timed out after %s waiting for every rank "
                   "of the job to start MPI (one stalled or died before starting; raise comm.timeout_s if startup "
                   "is just slow)\n",
                   launcher_rank(), launcher_size(), seconds_text(timeout_s).c_str());
      std::fflush(stderr);
      std::_Exit(1);  // the main thread is inside MPI_Init_thread, which cannot be interrupted
    });
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
    {
      std::lock_guard<std::mutex> lock(mu);
      done = true;
    }
    cv.notify_all();
    watchdog.join();
    owned = true;
  }
  ~MpiRuntime() {
    if (!owned) return;
    int fin = 0;
    MPI_Finalized(&fin);
    if (fin) return;
    if (g_failed) {
      std::fflush(stdout);
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Finalize();
  }
};

// The first call initializes MPI, bounded by `timeout_s` (comm.timeout_s of the first communicator).
MpiRuntime& runtime(double timeout_s = CommOptions{}.timeout_s) {
  static MpiRuntime rt(timeout_s);
  return rt;
}

MPI_Datatype mpi_type(DType t) {
  switch (t) {
    case DType::u8:
      return MPI_UINT8_T;
    case DType::i32:
      return MPI_INT32_T;
    case DType::i64:
      return MPI_INT64_T;
    case DType::f32:
      return MPI_FLOAT;
    case DType::f64:
      return MPI_DOUBLE;
    case DType::f16:
    case DType::bf16:
      break;
  }
  throw CommError(std::string("mpi all_reduce does not support ") + dtype_name(t) + "; reduce in f32");
}

MPI_Op mpi_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum:
      return MPI_SUM;
    case ReduceOp::max:
      return MPI_MAX;
    case ReduceOp::min:
      return MPI_MIN;
  }
  return MPI_SUM;
}

int to_int(size_t v, const std::string& what) {
  if (v > size_t(INT_MAX))
    throw CommError(what + ": " + std::to_string(v) + " bytes exceed MPI's 2 GiB count limit; split the message");
  return int(v);
}

// Pending MPI requests plus the buffers (counts, displacements) they reference.
class MpiState final : public Request::State {
 public:
  MpiState(std::string op, std::string who, double timeout)
      : op_(std::move(op)), who_(std::move(who)), timeout_(timeout) {}
  std::vector<MPI_Request> reqs;
  std::vector<int> counts_a, displs_a, counts_b, displs_b;
  std::vector<uint8_t> scratch;

  bool test() override {
    if (reqs.empty()) return true;
    int flag = 0;
    MPI_Testall(int(reqs.size()), reqs.data(), &flag, MPI_STATUSES_IGNORE);
    return flag != 0;
  }
  void wait() override {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_);
    int spins = 0;
    while (!test()) {
      if (std::chrono::steady_clock::now() > deadline) {
        g_failed = true;
        throw CommTimeoutError(who_ + ": " + op_ + " timed out after " + seconds_text(timeout_) +
                               " (a peer may have died or called a different collective; raise comm.timeout_s "
                               "if the work is just slow). The MPI job is aborted at exit.");
      }
      if (++spins > 1000) std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }

 private:
  std::string op_, who_;
  double timeout_;
};

class MpiCommunicator final : public Communicator {
 public:
  explicit MpiCommunicator(const CommOptions& o) : Communicator(o.timeout_s) {
    runtime(o.timeout_s);
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
    MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~MpiCommunicator() override {
    int fin = 0;
    MPI_Finalized(&fin);
    if (!fin && !g_failed) MPI_Comm_free(&comm_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::string backend() const override { return "mpi"; }

 protected:
  std::shared_ptr<MpiState> state(const std::string& op) { return std::make_shared<MpiState>(op, who(), timeout_s()); }
  Request finish(std::shared_ptr<MpiState> st, int rc, const std::string& op, uint64_t bytes_sent) {
    if (rc != MPI_SUCCESS) {
      char msg[MPI_MAX_ERROR_STRING];
      int len = 0;
      MPI_Error_string(rc, msg, &len);
      g_failed = true;
      throw CommError(who() + ": " + op + " failed in MPI: " + std::string(msg, size_t(len)));
    }
    CommStats d;
    d.bytes_sent = bytes_sent;
    add_stats(d);
    return Request(std::move(st), op);
  }

  Request do_isend(const void* data, size_t bytes, int dst, int tag) override {
    auto st = state("send to rank " + std::to_string(dst));
    st->reqs.resize(1);
    int rc = MPI_Isend(data, to_int(bytes, "send"), MPI_BYTE, dst, tag, comm_, &st->reqs[0]);
    return finish(st, rc, "send", bytes);
  }
  Request do_irecv(void* data, size_t bytes, int src, int tag) override {
    auto st = state("recv from rank " + std::to_string(src));
    st->reqs.resize(1);
    int rc = MPI_Irecv(data, to_int(bytes, "recv"), MPI_BYTE, src, tag, comm_, &st->reqs[0]);
    return finish(st, rc, "recv", 0);
  }
  Request do_ibroadcast(void* data, size_t bytes, int root) override {
    auto st = state("broadcast from rank " + std::to_string(root));
    st->reqs.resize(1);
    int rc = MPI_Ibcast(data, to_int(bytes, "broadcast"), MPI_BYTE, root, comm_, &st->reqs[0]);
    return finish(st, rc, "broadcast", rank_ == root ? bytes * size_t(size_ - 1) : 0);
  }
  Request do_iall_reduce(void* data, size_t count, DType dtype, ReduceOp op) override {
    auto st =
        state(std::string("all_reduce ") + to_string(op) + " of " + std::to_string(count) + " " + dtype_name(dtype));
    st->reqs.resize(1);
    int rc = MPI_Iallreduce(MPI_IN_PLACE, data, to_int(count, "all_reduce"), mpi_type(dtype), mpi_op(op), comm_,
                            &st->reqs[0]);
    uint64_t bytes = count * dtype_size(dtype);
    return finish(st, rc, "all_reduce", size_ > 1 ? 2 * bytes * uint64_t(size_ - 1) / uint64_t(size_) : 0);
  }
  Request do_iall_gather_v(const void* send, std::span<const size_t> recv_bytes, void* recv) override {
    auto st = state("all_gather");
    st->counts_a.resize(size_t(size_));
    st->displs_a.resize(size_t(size_));
    size_t off = 0;
    for (int p = 0; p < size_; ++p) {
      st->counts_a[size_t(p)] = to_int(recv_bytes[size_t(p)], "all_gather");
      st->displs_a[size_t(p)] = to_int(off, "all_gather");
      off += recv_bytes[size_t(p)];
    }
    st->reqs.resize(1);
    size_t mine = recv_bytes[size_t(rank_)];
    int rc = MPI_Iallgatherv(send, int(mine), MPI_BYTE, recv, st->counts_a.data(), st->displs_a.data(), MPI_BYTE, comm_,
                             &st->reqs[0]);
    return finish(st, rc, "all_gather", mine * size_t(size_ - 1));
  }
  Request do_igather(const void* send, size_t bytes, void* recv, int root) override {
    auto st = state("gather to rank " + std::to_string(root));
    st->reqs.resize(1);
    int n = to_int(bytes, "gather");
    int rc = MPI_Igather(send, n, MPI_BYTE, recv, n, MPI_BYTE, root, comm_, &st->reqs[0]);
    return finish(st, rc, "gather", rank_ == root ? 0 : bytes);
  }
  Request do_iall_to_all_v(const void* send, std::span<const size_t> send_bytes, void* recv,
                           std::span<const size_t> recv_bytes) override {
    auto st = state("all_to_all_v");
    const size_t n = size_t(size_);
    st->counts_a.resize(n);
    st->displs_a.resize(n);
    st->counts_b.resize(n);
    st->displs_b.resize(n);
    size_t so = 0, ro = 0;
    uint64_t sent = 0;
    for (size_t p = 0; p < n; ++p) {
      st->counts_a[p] = to_int(send_bytes[p], "all_to_all_v");
      st->displs_a[p] = to_int(so, "all_to_all_v");
      st->counts_b[p] = to_int(recv_bytes[p], "all_to_all_v");
      st->displs_b[p] = to_int(ro, "all_to_all_v");
      so += send_bytes[p];
      ro += recv_bytes[p];
      if (p != size_t(rank_)) sent += send_bytes[p];
    }
    st->reqs.resize(1);
    int rc = MPI_Ialltoallv(send, st->counts_a.data(), st->displs_a.data(), MPI_BYTE, recv, st->counts_b.data(),
                            st->displs_b.data(), MPI_BYTE, comm_, &st->reqs[0]);
    return finish(st, rc, "all_to_all_v", sent);
  }
  Request do_ibarrier() override {
    auto st = state("barrier");
    st->reqs.resize(1);
    int rc = MPI_Ibarrier(comm_, &st->reqs[0]);
    return finish(st, rc, "barrier", 0);
  }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0, size_ = 1;
};

}  // namespace

std::unique_ptr<Communicator> create_mpi_communicator(const CommOptions& options) {
  return std::make_unique<MpiCommunicator>(options);
}

std::string mpi_library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(text, &len);
  std::string v(text, size_t(len));
  return v.substr(0, v.find_first_of(",\n"));
}

void mpi_init(double timeout_s) { runtime(timeout_s); }

bool mpi_is_initialized() {
  int init = 0;
  MPI_Initialized(&init);
  return init != 0;
}

int mpi_world_rank() {
  runtime();
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int mpi_world_size() {
  runtime();
  int s = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

int mpi_local_rank() {
  runtime();
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int r = 0;
  MPI_Comm_rank(node, &r);
  MPI_Comm_free(&node);
  return r;
}

void mpi_broadcast_bytes(void* data, size_t bytes, int root, double timeout_s) {
  runtime(timeout_s);
  int me = 0, n = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  MpiState st("broadcast from rank " + std::to_string(root),
              "rank " + std::to_string(me) + " of " + std::to_string(n) + " (mpi)", timeout_s);
  st.reqs.resize(1);
  MPI_Ibcast(data, to_int(bytes, "broadcast"), MPI_BYTE, root, MPI_COMM_WORLD, &st.reqs[0]);
  st.wait();  // bounded: a root that never comes is a timeout naming it, not a hang
}

}  // namespace mlsys::comm::detail
