#include "core/comm/inproc/inproc_group.hpp"

#include <cstring>

#include "core/comm/comm_error.hpp"

namespace mlsys::comm {

InprocGroup::InprocGroup(int size, const CommOptions& options)
    : size_(size),
      options_(options),
      link_(options),
      links_(size_t(size), LinkQueue(link_schedule(options.link_schedule))),
      exited_(size_t(size), false),
      readers_(size_t(size), 0) {}

void InprocGroup::throw_if_aborted(const std::string& who, const std::string& op) const {
  if (aborted_) throw CommAbortedError(who + ": " + op + " aborted because " + reason_);
}

double InprocGroup::post(int src, int dst, int64_t tag, const void* data, size_t bytes, const std::string& op,
                         const std::string& who, int priority) {
  Message m;
  // One pass over the bytes (resize-then-copy would zero-fill them first).
  const auto* first = static_cast<const uint8_t*>(data);
  if (bytes) m.data.assign(first, first + bytes);
  double modeled = link_.message_seconds(src, dst, bytes);
  {
    std::lock_guard<std::mutex> lock(mu_);
    throw_if_aborted(who, op);
    const auto now = Clock::now();
    m.deliver_at = now;
    std::deque<Message>& box = box_[Key{src, dst, tag}];
    box.push_back(std::move(m));  // a deque keeps its elements in place: the link may re-time this one
    if (link_.sleeps() && modeled > 0)
      // The sender's link carries one message at a time, in the schedule's order. A message is
      // re-timed only before its delivery, so before take() can remove it.
      links_[size_t(src)].add(now, std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(modeled)),
                              priority, &box.back().deliver_at);
  }
  cv_.notify_all();
  return modeled;
}

bool InprocGroup::ready(int src, int dst, int64_t tag) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = box_.find(Key{src, dst, tag});
  return aborted_ || (it != box_.end() && !it->second.empty() && it->second.front().deliver_at <= Clock::now());
}

void InprocGroup::take(int src, int dst, int64_t tag, void* out, size_t bytes, const std::string& op,
                       const std::string& who, Clock::time_point deadline) {
  const std::vector<uint8_t> m = take_message(src, dst, tag, bytes, op, who, deadline);
  if (bytes) std::memcpy(out, m.data(), bytes);
}

std::vector<uint8_t> InprocGroup::take_message(int src, int dst, int64_t tag, size_t bytes, const std::string& op,
                                               const std::string& who, Clock::time_point deadline) {
  Message m;
  {
    std::unique_lock<std::mutex> lock(mu_);
    const Key key{src, dst, tag};
    for (;;) {
      throw_if_aborted(who, op);
      auto it = box_.find(key);
      if (it != box_.end() && !it->second.empty()) {
        auto at = it->second.front().deliver_at;
        if (at <= Clock::now()) {
          m = std::move(it->second.front());
          it->second.pop_front();
          if (it->second.empty()) box_.erase(it);
          break;
        }
        cv_.wait_until(lock, std::min(at, deadline));
      } else if (exited_[size_t(src)]) {
        std::string why = who + ": " + op + " waits for rank " + std::to_string(src) +
                          ", which already returned without sending it (do all ranks call the same "
                          "collectives in the same order?)";
        aborted_ = true;
        reason_ = why;
        cv_.notify_all();
        throw CommError(why);
      } else if (cv_.wait_until(lock, deadline) == std::cv_status::timeout && Clock::now() >= deadline) {
        auto it2 = box_.find(key);
        if (it2 != box_.end() && !it2->second.empty()) continue;
        std::string why = who + ": " + op + " timed out after " + seconds_text(options_.timeout_s) +
                          " waiting for rank " + std::to_string(src) +
                          " (raise comm.timeout_s, or check that every rank calls the same collectives in the "
                          "same order)";
        if (!aborted_) {
          aborted_ = true;
          reason_ = why;
        }
        cv_.notify_all();
        throw CommTimeoutError(why);
      }
    }
  }
  if (m.data.size() != bytes)
    throw CommError(who + ": " + op + ": rank " + std::to_string(src) + " sent " + std::to_string(m.data.size()) +
                    " bytes but this rank expected " + std::to_string(bytes) +
                    " (the counts of both sides must match)");
  return std::move(m.data);
}

void InprocGroup::abort(const std::string& why) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!aborted_) {
      aborted_ = true;
      reason_ = why;
    }
  }
  cv_.notify_all();
}

void InprocGroup::begin_read(int owner, const std::string& op, const std::string& who) {
  std::lock_guard<std::mutex> lock(mu_);
  throw_if_aborted(who, op);
  ++readers_[size_t(owner)];
}

void InprocGroup::end_read(int owner) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    --readers_[size_t(owner)];
  }
  cv_.notify_all();
}

void InprocGroup::wait_unread(int owner) {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return readers_[size_t(owner)] == 0; });  // readers only copy: they finish
}

void InprocGroup::rank_exited(int rank) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    exited_[size_t(rank)] = true;
  }
  cv_.notify_all();
}

}  // namespace mlsys::comm
