#include "core/comm/link_queue.hpp"

#include "core/util/error.hpp"
#include "core/util/strings.hpp"

namespace mlsys::comm {

const std::vector<LinkSchedule>& link_schedules() {
  static const std::vector<LinkSchedule> table = {
      {"fifo", false, false, "One queue per sender link: messages leave in posting order"},
      {"priority", true, false,
       "Urgent messages (e.g. the gradient all-reduce) go ahead of queued, not yet started ones; a message in "
       "transmission finishes first"},
      {"preempt", true, true,
       "As priority, and an urgent message also interrupts a less urgent one in transmission, which resumes after "
       "it (strict-priority traffic classes)"},
  };
  return table;
}

const LinkSchedule& link_schedule(const std::string& name) {
  std::vector<std::string> names;
  for (const LinkSchedule& s : link_schedules()) {
    if (s.name == name) return s;
    names.push_back(s.name);
  }
  throw ConfigError("unknown link schedule '" + name + "'; valid: " + join(names, ", "));
}

void LinkQueue::add(Clock::time_point now, Clock::duration d, int priority, Clock::time_point* deliver_at) {
  while (!q_.empty() && q_.front().end <= now) q_.pop_front();  // delivered: their times are final
  // Where it joins: behind every message at least as urgent (posting order among equals); the
  // front, in transmission, is passed only when the schedule preempts.
  size_t pos = q_.size();
  if (schedule_.by_priority) {
    const size_t first = schedule_.preempts ? 0 : 1;
    while (pos > first && q_[pos - 1].priority < priority) --pos;
  }
  const Clock::time_point start = pos == 0 ? now : q_[pos - 1].end;
  q_.insert(q_.begin() + static_cast<std::ptrdiff_t>(pos), Entry{priority, start + d, deliver_at});
  *deliver_at = start + d;
  // The link is busy back to back: everything behind the newcomer (an interrupted message's
  // remainder included) is delivered `d` later.
  for (size_t i = pos + 1; i < q_.size(); ++i) {
    q_[i].end += d;
    *q_[i].out = q_[i].end;
  }
}

}  // namespace mlsys::comm
