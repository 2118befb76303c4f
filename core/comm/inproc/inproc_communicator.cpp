#include "core/comm/inproc/inproc_communicator.hpp"

#include <cstring>

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

void InprocCommunicator::post(int dst, int64_t tag, const void* data, size_t bytes, const char* op, int priority) {
  CommStats d;
  d.messages = 1;
  d.bytes_sent = bytes;
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
Request InprocCommunicator::do_iall_reduce(void* data, size_t count, DType dtype, ReduceOp op) {
  int64_t tag = next_collective_tag();
  const int n = size();
  if (n == 1) return Request();
  const size_t es = dtype_size(dtype);
  auto* bytes = static_cast<uint8_t*>(data);
  auto chunk_begin = [count, n](int p) { return count * size_t(p) / size_t(n); };
  for (int p = 0; p < n; ++p) {
    if (p == rank_) continue;
    size_t b = chunk_begin(p), e = chunk_begin(p + 1);
    post(p, tag, bytes + b * es, (e - b) * es, "all_reduce", priority());
  }
  size_t my_b = chunk_begin(rank_), my_n = chunk_begin(rank_ + 1) - my_b;
  auto group = group_;
  int me = rank_;
  std::string who_am_i = who();
  double timeout = timeout_s();
  auto self = this;
  const int prio = priority();  // the gather phase is posted later, from wait()
  const std::string name = std::string("all_reduce ") + to_string(op) + " of " + std::to_string(count) + " " + dtype_name(dtype);
  auto ready = [group, me, tag, n] {
    for (int p = 0; p < n; ++p)
      if (p != me && !group->ready(p, me, tag)) return false;
    return true;
  };
  // The peers' chunks are reduced straight out of their messages, one at a time: no receive
  // buffers are held while the collective is pending.
  auto finish = [=] {
    Clock::time_point deadline = deadline_after(timeout);
    uint8_t* mine = bytes + my_b * es;
    std::vector<uint8_t> acc(my_n * es);
    for (int p = 0; p < n; ++p) {
      std::vector<uint8_t> msg;
      if (p != me) msg = group->take_message(p, me, tag, my_n * es, name, who_am_i, deadline);
      const uint8_t* c = p == me ? mine : msg.data();
      if (p == 0) {
        if (!acc.empty()) std::memcpy(acc.data(), c, acc.size());
      } else {
        reduce_into(acc.data(), c, my_n, dtype, op);
      }
    }
    if (!acc.empty()) std::memcpy(mine, acc.data(), acc.size());
    for (int p = 0; p < n; ++p)
      if (p != me) self->post(p, tag, mine, acc.size(), "all_reduce", prio);
    deadline = deadline_after(timeout);  // the gather phase has a timeout of its own
    for (int p = 0; p < n; ++p) {
      if (p == me) continue;
      size_t b = chunk_begin(p), e = chunk_begin(p + 1);
      group->take(p, me, tag, bytes + b * es, (e - b) * es, "all_reduce (gather phase)", who_am_i, deadline);
    }
  };
  return Request(std::make_shared<DeferredState>(ready, finish), name);
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
