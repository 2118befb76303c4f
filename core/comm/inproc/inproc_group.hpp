#pragma once
// Shared state of an inproc communicator group: one mailbox per (src, dst, tag), a group-wide
// abort flag and the link model. Sends are buffered (copied at once), so an operation's sends
// happen when it starts and its receives when it is waited on: no progress thread is needed and
// computation between start and wait overlaps the other ranks' progress.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "core/comm/comm_options.hpp"
#include "core/comm/link_model.hpp"
#include "core/comm/link_queue.hpp"

namespace mlsys::comm {

class InprocGroup {
 public:
  using Clock = std::chrono::steady_clock;

  InprocGroup(int size, const CommOptions& options);
  int size() const { return size_; }
  const CommOptions& options() const { return options_; }

  // Copies `bytes` from `data` into dst's mailbox; returns the modeled seconds charged (0 when the
  // link model is off). With link_sleep the message is delivered after its modeled time on src's
  // link, in the order comm.link_schedule gives by `priority` (Communicator::set_priority).
  // Throws CommAbortedError when the group was aborted.
  double post(int src, int dst, int64_t tag, const void* data, size_t bytes, const std::string& op,
              const std::string& who, int priority = 0);
  // Waits until (src -> dst, tag) holds a message (and, with link_sleep, its modeled delivery
  // time passed) and copies it to `out`, which expects exactly `bytes`. `op` and `who` name the
  // operation and rank in errors. Past `deadline`: CommTimeoutError, and the group is aborted.
  void take(int src, int dst, int64_t tag, void* out, size_t bytes, const std::string& op, const std::string& who,
            Clock::time_point deadline);
  // The same, handing over the message's own buffer instead of copying it out.
  std::vector<uint8_t> take_message(int src, int dst, int64_t tag, size_t bytes, const std::string& op,
                                    const std::string& who, Clock::time_point deadline);
  bool ready(int src, int dst, int64_t tag);

  // Every waiting rank fails with CommAbortedError carrying `why` (first reason wins).
  void abort(const std::string& why);
  // In-place collectives (an all-reduce reading its peers' buffers): a rank reads `owner`'s memory
  // only between begin_read and end_read. begin_read fails once the group is aborted, so after a
  // failure no read starts, and wait_unread(owner) returns when none is in progress: the owner's
  // caller may then free the memory.
  void begin_read(int owner, const std::string& op, const std::string& who);
  void end_read(int owner);
  void wait_unread(int owner);
  // A rank whose body returned: waiting for its messages fails at once instead of timing out.
  void rank_exited(int rank);

 private:
  using Key = std::tuple<int, int, int64_t>;
  struct Message {
    std::vector<uint8_t> data;
    Clock::time_point deliver_at;
  };
  void throw_if_aborted(const std::string& who, const std::string& op) const;

  int size_;
  CommOptions options_;
  LinkModel link_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::map<Key, std::deque<Message>> box_;
  std::vector<LinkQueue> links_;  // per sender: its modeled link (delivery times of box_'s messages)
  std::vector<bool> exited_;
  std::vector<int> readers_;  // per rank: peers reading its memory now (begin_read)
  bool aborted_ = false;
  std::string reason_;
};

}  // namespace mlsys::comm
