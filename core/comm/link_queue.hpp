#pragma once
// The order in which one sender's modeled link carries its messages when the link model delivers
// its delays (comm.link_sleep; chosen by comm.link_schedule). Every message occupies the link for
// its full modeled time under every schedule, so the link's busy time is the same; a schedule only
// decides which message waits:
//   fifo      in posting order (one queue per link)
//   priority  a more urgent message (Communicator::set_priority) goes ahead of the less urgent ones
//             that have not started; the one in transmission finishes first
//   preempt   as priority, and a more urgent message also interrupts a less urgent one in
//             transmission, which resumes after it (strict-priority traffic classes: the urgent
//             class's packets go first)
// Messages of equal priority keep posting order.
//
//   comm::LinkQueue link(comm::link_schedule("preempt"));
//   link.add(now, 16ms, /*priority=*/0, &halo.deliver_at);       // now + 16ms
//   link.add(now + 2ms, 1ms, /*priority=*/1, &grads.deliver_at);  // now + 3ms; halo.deliver_at += 1ms
#include <chrono>
#include <deque>
#include <string>
#include <vector>

namespace mlsys::comm {

struct LinkSchedule {
  std::string name;
  bool by_priority;  // more urgent messages go ahead of queued less urgent ones
  bool preempts;     // ... and interrupt a less urgent one in transmission
  std::string description;
};

// fifo, priority, preempt (the table comm.link_schedule offers).
const std::vector<LinkSchedule>& link_schedules();
const LinkSchedule& link_schedule(const std::string& name);  // ConfigError listing the valid names

class LinkQueue {
 public:
  using Clock = std::chrono::steady_clock;
  explicit LinkQueue(const LinkSchedule& schedule) : schedule_(schedule) {}

  // Schedules a message posted at `now` that occupies the link for `d`: writes its delivery time
  // to *deliver_at, and moves the delivery of every message it goes ahead of later by `d` (through
  // the pointers they were added with). A pointer must stay valid until its delivery time has
  // passed; calls come in non-decreasing `now`.
  void add(Clock::time_point now, Clock::duration d, int priority, Clock::time_point* deliver_at);
  // Messages not yet delivered at the last add (the one in transmission included).
  size_t pending() const { return q_.size(); }

 private:
  struct Entry {
    int priority;
    Clock::time_point end;  // delivery
    Clock::time_point* out;
  };
  LinkSchedule schedule_;
  // In the order the link carries them, back to back: the front is in transmission, each other
  // one starts when the one before it ends.
  std::deque<Entry> q_;
};

}  // namespace mlsys::comm
