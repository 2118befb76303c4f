#include "core/comm/inproc/inproc_communicator.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <utility>

#include "core/comm/comm_error.hpp"

namespace mlsys::comm {
namespace {

using Clock = InprocGroup::Clock;

Clock::time_point deadline_after(double seconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

class DeferredState final : public Request::State {
 public:
  DeferredState(std::function<bool()> ready, std::function<void()> finish)
      : ready_(std::move(ready)), finish_(std::move(finish)) {}
  bool test() override { return ready_(); }
  void wait() override { finish_(); }

 private:
  std::function<bool()> ready_;
  std::function<void()> finish_;
};

std::vector<size_t> offsets_of(std::span<const size_t> counts) {
  std::vector<size_t> off(counts.size() + 1, 0);
  for (size_t i = 0; i < counts.size(); ++i) off[i + 1] = off[i] + counts[i];
  return off;
}

}  // namespace

InprocCommunicator::InprocCommunicator(std::shared_ptr<InprocGroup> group, int rank)
    : Communicator(group->options().timeout_s), group_(std::move(group)), rank_(rank) {}

void InprocCommunicator::post(int dst, int64_t tag, const void* data, size_t bytes, const char* op, int priority,
                              size_t counted) {
  CommStats d;
  d.messages = 1;
  d.bytes_sent = counted == kCountSent ? bytes : counted;
  d.modeled_seconds = group_->post(rank_, dst, tag, data, bytes, op, who(), priority);
  add_stats(d);
}

Request InprocCommunicator::deferred(std::string op, int64_t tag, std::vector<Recv> recvs,
                                     std::function<void()> after) {
  auto group = group_;
  int me = rank_;
  std::string who_am_i = who();
  double timeout = timeout_s();
  auto ready = [group, me, tag, recvs] {
    for (auto& r : recvs)
      if (!group->ready(r.src, me, tag)) return false;
    return true;
  };
  auto finish = [group, me, tag, recvs, op, who_am_i, timeout, after] {
    auto deadline = deadline_after(timeout);
    for (auto& r : recvs) group->take(r.src, me, tag, r.out, r.bytes, op, who_am_i, deadline);
    if (after) after();
  };
  return Request(std::make_shared<DeferredState>(ready, finish), op);
}

Request InprocCommunicator::do_isend(const void* data, size_t bytes, int dst, int tag) {
  post(dst, tag, data, bytes, "send", priority());
  return Request();
}

Request InprocCommunicator::do_irecv(void* data, size_t bytes, int src, int tag) {
  return deferred("recv from rank " + std::to_string(src) + " (tag " + std::to_string(tag) + ")", tag,
                  {{src, data, bytes}});
}

Request InprocCommunicator::do_ibroadcast(void* data, size_t bytes, int root) {
  int64_t tag = next_collective_tag();
  if (rank_ == root) {
    for (int p = 0; p < size(); ++p)
      if (p != rank_) post(p, tag, data, bytes, "broadcast", priority());
    return Request();
  }
  return deferred("broadcast from rank " + std::to_string(root), tag, {{root, data, bytes}});
}

// Reduce-scatter then all-gather: chunk p is reduced by rank p in rank order (c0 + c1 + ...), so
// every rank ends with the same bits, and each rank sends about 2x its buffer in total.
//
// Without a link model nothing is gained by copying a large buffer's chunks into messages (the
// ranks share the address space): the messages then carry the chunks' addresses, each rank reads its chunk of
// every peer's buffer in place and, in the gather phase, copies the peers' reduced chunks out of
// their buffers; a third message tells each peer its reduced chunk was copied, and a rank's
// all-reduce completes only when every peer has said so (its buffer is then the caller's again).
// An address message also carries the chunk's size, checked as the copying path checks a
// message's. On a failure the group is aborted (no read starts after it: InprocGroup::begin_read)
// and the failing rank returns only once no peer is still reading its buffer.
// Same arithmetic in the same order: the same bits as the copying path, with no staging memory
// (a gradient all-reduce of 4 in-process workers held 5-6 MiB of messages on coauthor_cs).
// Statistics count the chunks' bytes, as the copying path sends them.
//
// Two phases, and test() never blocks: once the peers' reduce-scatter chunks have arrived, test()
// reduces this rank's chunk and posts it (the gather phase), then reports done only when the
// peers' reduced chunks have arrived too. Were the gather phase waited for inside test(), a rank
// polling several all-reduces in flight could enter a later one's gather while its peer waits in
// an earlier one's: each would wait for a chunk the other posts only after it returns (seen as an
// "all_reduce (gather phase) timed out" between the per-parameter gradient all-reduces).
class InprocCommunicator::AllReduceState final : public Request::State {
 public:
  AllReduceState(InprocCommunicator* self, int64_t tag, uint8_t* bytes, size_t count, DType dtype, ReduceOp op, int priority)
      : self_(self),
        group_(self->group_),
        me_(self->rank_),
        n_(self->size()),
        tag_(tag),
        bytes_(bytes),
        count_(count),
        es_(dtype_size(dtype)),
        dtype_(dtype),
        op_(op),
        priority_(priority),
        who_(self->who()),
        timeout_(self->timeout_s()),
        name_(std::string("all_reduce ") + to_string(op) + " of " + std::to_string(count) + " " + dtype_name(dtype)),
        in_place_(!group_->options().link_model && count * es_ >= kInPlaceBytes) {}

  // Smaller buffers are copied: their staging is small, and the in-place path's third message
  // round made sbm_100k's epochs (gradients of 32 KB and less) about 20% slower on 2 cores.
  static constexpr size_t kInPlaceBytes = size_t{256} << 10;

  const std::string& name() const { return name_; }
  // The reduce-scatter phase: chunk p of this rank's data (or its address) goes to rank p.
  void post_chunks() {
    for (int p = 0; p < n_; ++p)
      if (p != me_) send(p, bytes_ + begin(p) * es_, (begin(p + 1) - begin(p)) * es_);
  }
  bool test() override {
    if (failed_) return true;
    try {
      return progress();
    } catch (...) {
      failed_ = std::current_exception();  // wait() reports it (its messages are taken: no retry)
      if (in_place_) stop_reads(failed_);
      return true;
    }
  }
  void wait() override {
    if (failed_) std::rethrow_exception(failed_);
    try {
      finish();
    } catch (...) {
      if (in_place_) stop_reads(std::current_exception());
      throw;
    }
  }
  void abandoned() override {
    if (in_place_ && !complete_ && !failed_)
      stop_reads(std::make_exception_ptr(CommAbortedError(who_ + ": " + name_ + " abandoned")));
  }

 private:
  // Each phase runs once its messages are at the front of every peer's mailbox: nothing waits.
  bool progress() {
    if (!reduced_) {
      if (!arrived()) return false;
      reduce_scatter();
    }
    if (!in_place_) return arrived();
    if (!gathered_) {
      if (!arrived()) return false;
      gather_in_place(Clock::now());
    }
    return arrived();  // the peers' acknowledgements
  }
  void finish() {
    if (!reduced_) reduce_scatter();
    const Clock::time_point deadline = deadline_after(timeout_);  // the gather phase has a timeout of its own
    if (!in_place_) {
      for (int p = 0; p < n_; ++p)
        if (p != me_)
          group_->take(p, me_, tag_, bytes_ + begin(p) * es_, (begin(p + 1) - begin(p)) * es_, "all_reduce (gather phase)",
                       who_, deadline);
      return;
    }
    if (!gathered_) gather_in_place(deadline);
    for (int p = 0; p < n_; ++p)
      if (p != me_) group_->take_message(p, me_, tag_, 0, "all_reduce (peers' copies)", who_, deadline);
    complete_ = true;
  }
  // In place, after a failure: no peer may start reading this rank's buffer, and those reading it
  // now finish, before the caller gets the buffer back.
  void stop_reads(const std::exception_ptr& why) {
    std::string what = "failed";
    try {
      std::rethrow_exception(why);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    group_->abort(who_ + ": " + name_ + ": " + what);
    group_->wait_unread(me_);
  }

  size_t begin(int p) const { return count_ * size_t(p) / size_t(n_); }
  // This phase's messages from every peer have been delivered (the front of each mailbox).
  bool arrived() const {
    for (int p = 0; p < n_; ++p)
      if (p != me_ && !group_->ready(p, me_, tag_)) return false;
    return true;
  }
  // The peers' chunks are reduced straight out of their messages (or, in place, out of their
  // buffers; no receive buffers held while the collective is pending); the reduced chunk (or its
  // address) then goes to every peer.
  void reduce_scatter() {
    const Clock::time_point deadline = deadline_after(timeout_);
    const size_t my_n = begin(me_ + 1) - begin(me_);
    uint8_t* mine = bytes_ + begin(me_) * es_;
    std::vector<std::vector<uint8_t>> msgs(static_cast<size_t>(n_));
    std::vector<const uint8_t*> from(static_cast<size_t>(n_));
    for (int p = 0; p < n_; ++p) {
      if (p != me_) msgs[size_t(p)] = group_->take_message(p, me_, tag_, in_place_ ? sizeof(Chunk) : my_n * es_, name_, who_, deadline);
      from[size_t(p)] = p == me_ ? mine : in_place_ ? chunk_of(msgs[size_t(p)], p, my_n * es_, name_) : msgs[size_t(p)].data();
    }
    std::vector<Reading> reading;  // in place: the peers whose buffers are read below (nothing blocks meanwhile)
    if (in_place_) {
      reading.reserve(static_cast<size_t>(n_));
      for (int p = 0; p < n_; ++p)
        if (p != me_) reading.emplace_back(*group_, p, name_, who_);
    }
    // A piece at a time, each element summed in rank order: the accumulator stays small.
    constexpr size_t kPiece = 16384;
    std::vector<uint8_t> acc(std::min(my_n, kPiece) * es_);
    for (size_t a = 0; a < my_n; a += kPiece) {
      const size_t len = std::min(kPiece, my_n - a), off = a * es_;
      std::memcpy(acc.data(), from[0] + off, len * es_);
      for (int p = 1; p < n_; ++p) reduce_into(acc.data(), from[size_t(p)] + off, len, dtype_, op_);
      std::memcpy(mine + off, acc.data(), len * es_);
    }
    for (int p = 0; p < n_; ++p)
      if (p != me_) send(p, mine, my_n * es_);
    reduced_ = true;
  }
  // In place: copies every peer's reduced chunk out of its buffer, then tells the peer so.
  void gather_in_place(Clock::time_point deadline) {
    for (int p = 0; p < n_; ++p) {
      if (p == me_) continue;
      std::vector<uint8_t> msg = group_->take_message(p, me_, tag_, sizeof(Chunk), "all_reduce (gather phase)", who_, deadline);
      const size_t bytes = (begin(p + 1) - begin(p)) * es_;
      const uint8_t* from = chunk_of(msg, p, bytes, "all_reduce (gather phase)");
      {
        Reading r(*group_, p, "all_reduce (gather phase)", who_);
        std::memcpy(bytes_ + begin(p) * es_, from, bytes);
      }
      group_->post(me_, p, tag_, nullptr, 0, "all_reduce", who_, priority_);
    }
    gathered_ = true;
  }
  // `bytes` of this rank's buffer at `data` go to rank p: a copy, or (in place) their address,
  // counted as the bytes it stands for.
  void send(int p, const uint8_t* data, size_t bytes) {
    if (!in_place_) return self_->post(p, tag_, data, bytes, "all_reduce", priority_);
    const Chunk c{data, bytes};
    self_->post(p, tag_, &c, sizeof c, "all_reduce", priority_, bytes);
  }
  // An in-place message: where a chunk lies in its owner's buffer, and its size.
  struct Chunk {
    const uint8_t* data;
    size_t bytes;
  };
  // The chunk rank p announced, checked against the size this rank expects (mismatched counts are
  // an error, as on the copying path, not a read past the peer's buffer).
  const uint8_t* chunk_of(const std::vector<uint8_t>& msg, int p, size_t expected, const std::string& op) const {
    Chunk c{};
    std::memcpy(&c, msg.data(), sizeof c);
    if (c.bytes != expected)
      throw CommError(who_ + ": " + op + ": rank " + std::to_string(p) + " sent " + std::to_string(c.bytes) +
                      " bytes but this rank expected " + std::to_string(expected) +
                      " (do all ranks pass the same count?)");
    return c.data;
  }
  // Reading a peer's buffer (InprocGroup::begin_read / end_read).
  class Reading {
   public:
    Reading(InprocGroup& g, int owner, const std::string& op, const std::string& who) : g_(&g), owner_(owner) {
      g.begin_read(owner, op, who);
    }
    Reading(Reading&& o) noexcept : g_(std::exchange(o.g_, nullptr)), owner_(o.owner_) {}
    Reading(const Reading&) = delete;
    Reading& operator=(const Reading&) = delete;
    Reading& operator=(Reading&&) = delete;
    ~Reading() {
      if (g_) g_->end_read(owner_);
    }

   private:
    InprocGroup* g_;
    int owner_;
  };

  InprocCommunicator* self_;
  std::shared_ptr<InprocGroup> group_;
  const int me_, n_;
  const int64_t tag_;
  uint8_t* bytes_;
  const size_t count_, es_;
  const DType dtype_;
  const ReduceOp op_;
  const int priority_;  // the gather phase is posted later, with the priority the operation started with
  const std::string who_;
  const double timeout_;
  const std::string name_;
  const bool in_place_;  // no link model: messages carry addresses (see above)
  bool reduced_ = false;
  bool gathered_ = false;
  bool complete_ = false;
  std::exception_ptr failed_;
};

Request InprocCommunicator::do_iall_reduce(void* data, size_t count, DType dtype, ReduceOp op) {
  int64_t tag = next_collective_tag();
  if (size() == 1) return Request();
  auto state = std::make_shared<AllReduceState>(this, tag, static_cast<uint8_t*>(data), count, dtype, op, priority());
  state->post_chunks();
  std::string name = state->name();
  return Request(std::move(state), std::move(name));
}

Request InprocCommunicator::do_iall_gather_v(const void* send, std::span<const size_t> recv_bytes, void* recv) {
  int64_t tag = next_collective_tag();
  auto off = offsets_of(recv_bytes);
  auto* out = static_cast<uint8_t*>(recv);
  size_t mine = recv_bytes[size_t(rank_)];
  for (int p = 0; p < size(); ++p)
    if (p != rank_) post(p, tag, send, mine, "all_gather", priority());
  if (mine && out + off[size_t(rank_)] != send) std::memmove(out + off[size_t(rank_)], send, mine);
  std::vector<Recv> recvs;
  for (int p = 0; p < size(); ++p)
    if (p != rank_) recvs.push_back({p, out + off[size_t(p)], recv_bytes[size_t(p)]});
  return deferred("all_gather", tag, std::move(recvs));
}

Request InprocCommunicator::do_igather(const void* send, size_t bytes, void* recv, int root) {
  int64_t tag = next_collective_tag();
  if (rank_ != root) {
    post(root, tag, send, bytes, "gather", priority());
    return Request();
  }
  auto* out = static_cast<uint8_t*>(recv);
  if (bytes && out + size_t(rank_) * bytes != send) std::memmove(out + size_t(rank_) * bytes, send, bytes);
  std::vector<Recv> recvs;
  for (int p = 0; p < size(); ++p)
    if (p != rank_) recvs.push_back({p, out + size_t(p) * bytes, bytes});
  return deferred("gather to rank " + std::to_string(root), tag, std::move(recvs));
}

Request InprocCommunicator::do_iall_to_all_v(const void* send, std::span<const size_t> send_bytes, void* recv,
                                             std::span<const size_t> recv_bytes) {
  int64_t tag = next_collective_tag();
  const size_t me = size_t(rank_);
  if (send_bytes[me] != recv_bytes[me])
    throw CommError(who() + ": all_to_all_v sends " + std::to_string(send_bytes[me]) + " bytes to itself but expects " +
                    std::to_string(recv_bytes[me]));
  auto soff = offsets_of(send_bytes), roff = offsets_of(recv_bytes);
  auto* in = static_cast<const uint8_t*>(send);
  auto* out = static_cast<uint8_t*>(recv);
  for (int p = 0; p < size(); ++p)
    if (p != rank_) post(p, tag, in + soff[size_t(p)], send_bytes[size_t(p)], "all_to_all_v", priority());
  if (send_bytes[me]) std::memmove(out + roff[me], in + soff[me], send_bytes[me]);
  std::vector<Recv> recvs;
  for (int p = 0; p < size(); ++p)
    if (p != rank_) recvs.push_back({p, out + roff[size_t(p)], recv_bytes[size_t(p)]});
  return deferred("all_to_all_v", tag, std::move(recvs));
}

Request InprocCommunicator::do_ibarrier() {
  int64_t tag = next_collective_tag();
  for (int p = 0; p < size(); ++p)
    if (p != rank_) post(p, tag, nullptr, 0, "barrier", priority());
  std::vector<Recv> recvs;
  for (int p = 0; p < size(); ++p)
    if (p != rank_) recvs.push_back({p, nullptr, 0});
  return deferred("barrier", tag, std::move(recvs));
}

}  // namespace mlsys::comm
