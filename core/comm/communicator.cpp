#include "core/comm/communicator.hpp"

#include <chrono>
#include <cstring>
#include <exception>

#include "core/comm/comm_error.hpp"
#include "core/log/log.hpp"
#include "core/util/error.hpp"

namespace mlsys::comm {

const char* to_string(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum:
      return "sum";
    case ReduceOp::max:
      return "max";
    case ReduceOp::min:
      return "min";
  }
  return "?";
}

// ---------------------------------------------------------------- Request
struct Request::Shared {
  std::shared_ptr<State> state;
  std::string what;
  std::vector<std::function<void()>> then;
  std::mutex mu;
  bool done = false;
  std::exception_ptr error;

  void wait() {
    std::lock_guard<std::mutex> lock(mu);
    if (!done) {
      done = true;
      try {
        if (state) state->wait();
        for (auto& fn : then) fn();
      } catch (...) {
        error = std::current_exception();
      }
      then.clear();
    }
    if (error) std::rethrow_exception(error);
  }

  ~Shared() {
    if (done) return;
    try {
      wait();
    } catch (const CommAbortedError& e) {
      // Only the consequence of a failure reported elsewhere (the root cause is the one error
      // the user reads): not repeated for every pending request.
      log::debug("communication request '{}' dropped without wait() was abandoned: {}", what, e.what());
    } catch (const std::exception& e) {
      log::warn("communication request '{}' dropped without wait() failed: {}", what, e.what());
    }
  }
};

Request::Request(std::shared_ptr<State> state, std::string what) : shared_(std::make_shared<Shared>()) {
  shared_->state = std::move(state);
  shared_->what = std::move(what);
}

Request::~Request() = default;

void Request::wait() {
  if (shared_) shared_->wait();
}

bool Request::test() {
  if (!shared_) return true;
  {
    std::lock_guard<std::mutex> lock(shared_->mu);
    if (shared_->done) return true;
    if (shared_->state && !shared_->state->test()) return false;
  }
  wait();  // finished: run continuations now
  return true;
}

bool Request::done() const {
  if (!shared_) return true;
  std::lock_guard<std::mutex> lock(shared_->mu);
  return shared_->done;
}

Request& Request::then(std::function<void()> fn) {
  if (!shared_) shared_ = std::make_shared<Shared>();
  std::lock_guard<std::mutex> lock(shared_->mu);
  if (shared_->done) {
    if (!shared_->error) fn();
  } else {
    shared_->then.push_back(std::move(fn));
  }
  return *this;
}

void Request::abandon(std::exception_ptr error) {
  if (!shared_) return;
  std::lock_guard<std::mutex> lock(shared_->mu);
  if (shared_->done) return;
  if (shared_->state) shared_->state->abandoned();
  shared_->done = true;
  shared_->error = std::move(error);
  shared_->then.clear();
}

void Request::wait_all(std::vector<Request>& reqs) {
  std::exception_ptr first;
  for (auto& r : reqs) {
    try {
      r.wait();
    } catch (...) {
      if (!first) first = std::current_exception();
    }
  }
  if (first) std::rethrow_exception(first);
}

// ---------------------------------------------------------------- Communicator
Communicator::~Communicator() = default;

// Adds the time spent blocked in wait() to the communicator's counters, and fails at once when an
// earlier operation of the communicator failed (the first failure is what the user must read; the
// requests still pending then must not each wait out a timeout while the error unwinds).
class TimedRequestState final : public Request::State {
 public:
  TimedRequestState(Request inner, Communicator* comm) : inner_(std::move(inner)), comm_(comm) {}
  bool test() override { return inner_.test(); }
  void wait() override {
    if (comm_->failed()) {
      auto error = std::make_exception_ptr(
          CommAbortedError(comm_->who() + ": operation abandoned because an earlier one failed: " + comm_->failure()));
      inner_.abandon(error);  // its destructor must not wait out another timeout either
      std::rethrow_exception(error);
    }
    auto t0 = std::chrono::steady_clock::now();
    try {
      inner_.wait();
    } catch (const CommAbortedError&) {
      record(t0);
      throw;
    } catch (const std::exception& e) {
      record(t0);
      comm_->mark_failed(e.what());
      throw;
    }
    record(t0);
  }

 private:
  void record(std::chrono::steady_clock::time_point t0) {
    CommStats d;
    d.wait_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    comm_->add_stats(d);
  }
  Request inner_;
  Communicator* comm_;
};

Request Communicator::timed(Request r) {
  CommStats d;
  d.ops = 1;
  add_stats(d);
  return Request(std::make_shared<TimedRequestState>(std::move(r), this));
}

void Communicator::mark_failed(const std::string& why) {
  std::lock_guard<std::mutex> lock(stats_mu_);
  if (failed_) return;
  failed_ = true;
  failure_ = why;
}

bool Communicator::failed() const {
  std::lock_guard<std::mutex> lock(stats_mu_);
  return failed_;
}

std::string Communicator::failure() const {
  std::lock_guard<std::mutex> lock(stats_mu_);
  return failure_;
}

std::string Communicator::who() const {
  return "rank " + std::to_string(rank()) + " of " + std::to_string(size()) + " (" + backend() + ")";
}

void Communicator::check_peer(int peer, const char* op) const {
  if (peer < 0 || peer >= size())
    throw Error(who() + ": " + op + " names rank " + std::to_string(peer) + ", valid ranks are 0.." +
                std::to_string(size() - 1));
}

void Communicator::check_counts(std::span<const size_t> counts, const char* op) const {
  if (counts.size() != size_t(size()))
    throw Error(who() + ": " + op + " needs one count per rank (" + std::to_string(size()) + "), got " +
                std::to_string(counts.size()));
}

std::vector<size_t> Communicator::scaled(std::span<const size_t> counts, size_t factor) {
  std::vector<size_t> out(counts.begin(), counts.end());
  for (auto& c : out) c *= factor;
  return out;
}

size_t Communicator::sum(std::span<const size_t> counts) {
  size_t s = 0;
  for (size_t c : counts) s += c;
  return s;
}

void Communicator::check_fits(size_t need, size_t have, const char* what) {
  if (need > have)
    throw Error(std::string(what) + ": the counts need " + std::to_string(need) + " bytes but the buffer has " +
                std::to_string(have));
}

Request Communicator::isend(const void* data, size_t bytes, int dst, int tag) {
  check_peer(dst, "send");
  if (tag < 0) throw Error(who() + ": send tags must be >= 0 (negative tags are reserved), got " + std::to_string(tag));
  return timed(do_isend(data, bytes, dst, tag));
}

Request Communicator::irecv(void* data, size_t bytes, int src, int tag) {
  check_peer(src, "recv");
  if (tag < 0) throw Error(who() + ": recv tags must be >= 0 (negative tags are reserved), got " + std::to_string(tag));
  return timed(do_irecv(data, bytes, src, tag));
}

Request Communicator::ibroadcast(void* data, size_t bytes, int root) {
  check_peer(root, "broadcast");
  return timed(do_ibroadcast(data, bytes, root));
}

Request Communicator::iall_reduce(void* data, size_t count, DType dtype, ReduceOp op) {
  return timed(do_iall_reduce(data, count, dtype, op));
}

Request Communicator::iall_gather(const void* send, size_t bytes, void* recv) {
  std::vector<size_t> counts(size_t(size()), bytes);
  return timed(do_iall_gather_v(send, counts, recv));
}

Request Communicator::iall_gather_v(const void* send, std::span<const size_t> recv_bytes, void* recv) {
  check_counts(recv_bytes, "all_gather_v");
  return timed(do_iall_gather_v(send, recv_bytes, recv));
}

Request Communicator::igather(const void* send, size_t bytes, void* recv, int root) {
  check_peer(root, "gather");
  return timed(do_igather(send, bytes, recv, root));
}

Request Communicator::iall_to_all_v(const void* send, std::span<const size_t> send_bytes, void* recv,
                                    std::span<const size_t> recv_bytes) {
  check_counts(send_bytes, "all_to_all_v (send)");
  check_counts(recv_bytes, "all_to_all_v (recv)");
  return timed(do_iall_to_all_v(send, send_bytes, recv, recv_bytes));
}

Request Communicator::ibarrier() { return timed(do_ibarrier()); }

std::vector<size_t> Communicator::exchange_counts(std::span<const size_t> send_counts) {
  check_counts(send_counts, "exchange_counts");
  std::vector<uint64_t> out(static_cast<size_t>(size())), in(send_counts.begin(), send_counts.end());
  std::vector<size_t> bytes(size_t(size()), sizeof(uint64_t));
  on_host_buffers(in.data(), in.size() * sizeof(uint64_t), out.data(), out.size() * sizeof(uint64_t),
                  [&](const void* i, void* o) { all_to_all_v(i, bytes, o, bytes); });
  return std::vector<size_t>(out.begin(), out.end());
}

CommStats Communicator::stats() const {
  std::lock_guard<std::mutex> lock(stats_mu_);
  return stats_;
}

void Communicator::reset_stats() {
  std::lock_guard<std::mutex> lock(stats_mu_);
  stats_ = CommStats{};
}

void Communicator::add_stats(const CommStats& d) {
  std::lock_guard<std::mutex> lock(stats_mu_);
  stats_.ops += d.ops;
  stats_.messages += d.messages;
  stats_.bytes_sent += d.bytes_sent;
  stats_.raw_bytes += d.raw_bytes;
  stats_.wire_bytes += d.wire_bytes;
  stats_.wait_seconds += d.wait_seconds;
  stats_.modeled_seconds += d.modeled_seconds;
}

std::string seconds_text(double s) { return fmt::format("{:g} s", s); }

std::string describe(const CommStats& s) {
  std::string out = fmt::format("{} ops, {} messages, {:.2f} MiB sent, measured wait {:.3f} s", s.ops, s.messages,
                                double(s.bytes_sent) / 1048576.0, s.wait_seconds);
  if (s.raw_bytes)
    out +=
        fmt::format("; quantized {:.2f} MiB raw -> {:.2f} MiB on the wire ({:.1f}x)", double(s.raw_bytes) / 1048576.0,
                    double(s.wire_bytes) / 1048576.0, s.wire_bytes ? double(s.raw_bytes) / double(s.wire_bytes) : 0.0);
  if (s.modeled_seconds > 0) out += fmt::format("; MODELED link time {:.4f} s", s.modeled_seconds);
  return out;
}

// ---------------------------------------------------------------- reductions
namespace {

template <class T>
void reduce_typed(T* acc, const T* in, size_t n, ReduceOp op) {
  switch (op) {
    case ReduceOp::sum:
      for (size_t i = 0; i < n; ++i) acc[i] = T(acc[i] + in[i]);
      break;
    case ReduceOp::max:
      for (size_t i = 0; i < n; ++i) acc[i] = in[i] > acc[i] ? in[i] : acc[i];
      break;
    case ReduceOp::min:
      for (size_t i = 0; i < n; ++i) acc[i] = in[i] < acc[i] ? in[i] : acc[i];
      break;
  }
}

}  // namespace

void reduce_into(void* acc, const void* in, size_t count, DType dtype, ReduceOp op) {
  switch (dtype) {
    case DType::f32:
      return reduce_typed(static_cast<float*>(acc), static_cast<const float*>(in), count, op);
    case DType::f64:
      return reduce_typed(static_cast<double*>(acc), static_cast<const double*>(in), count, op);
    case DType::i64:
      return reduce_typed(static_cast<int64_t*>(acc), static_cast<const int64_t*>(in), count, op);
    case DType::i32:
      return reduce_typed(static_cast<int32_t*>(acc), static_cast<const int32_t*>(in), count, op);
    case DType::u8:
      return reduce_typed(static_cast<uint8_t*>(acc), static_cast<const uint8_t*>(in), count, op);
    case DType::f16:
    case DType::bf16:
      throw Error(std::string("all_reduce on ") + dtype_name(dtype) +
                  " is not supported on host backends; reduce in f32 (convert first)");
  }
}

}  // namespace mlsys::comm
