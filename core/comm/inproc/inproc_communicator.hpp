#pragma once
// The inproc backend: ranks are threads of one process sharing an InprocGroup. Made by
// run_inproc (factory.hpp; registered in backends/inproc.cpp).
#include <memory>

#include "core/comm/communicator.hpp"
#include "core/comm/inproc/inproc_group.hpp"

namespace mlsys::comm {

class InprocCommunicator final : public Communicator {
 public:
  InprocCommunicator(std::shared_ptr<InprocGroup> group, int rank);
  int rank() const override { return rank_; }
  int size() const override { return group_->size(); }
  std::string backend() const override { return "inproc"; }
  InprocGroup& group() { return *group_; }

 protected:
  Request do_isend(const void* data, size_t bytes, int dst, int tag) override;
  Request do_irecv(void* data, size_t bytes, int src, int tag) override;
  Request do_ibroadcast(void* data, size_t bytes, int root) override;
  Request do_iall_reduce(void* data, size_t count, DType dtype, ReduceOp op) override;
  Request do_iall_gather_v(const void* send, std::span<const size_t> recv_bytes, void* recv) override;
  Request do_igather(const void* send, size_t bytes, void* recv, int root) override;
  Request do_iall_to_all_v(const void* send, std::span<const size_t> send_bytes, void* recv,
                           std::span<const size_t> recv_bytes) override;
  Request do_ibarrier() override;

 private:
  int64_t next_collective_tag() { return -1 - collective_seq_++; }
  // `priority`: the operation's (priority() when it started), for the link's schedule. `counted`:
  // the bytes the statistics count (a message that stands for memory read in place), else `bytes`.
  static constexpr size_t kCountSent = ~size_t{0};
  void post(int dst, int64_t tag, const void* data, size_t bytes, const char* op, int priority, size_t counted = kCountSent);
  // A request whose receives run at wait(): `recvs` lists (src, dst buffer, bytes).
  struct Recv {
    int src;
    void* out;
    size_t bytes;
  };
  Request deferred(std::string op, int64_t tag, std::vector<Recv> recvs, std::function<void()> after = {});
  class AllReduceState;  // the two phases of an all-reduce, driven by test() without blocking

  std::shared_ptr<InprocGroup> group_;
  int rank_;
  int64_t collective_seq_ = 0;
};

}  // namespace mlsys::comm
