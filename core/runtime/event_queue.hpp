#pragma once
// Discrete-event queue: time-ordered, ties broken by insertion order (so simulations are
// deterministic), cancellable. A 4-ary min-heap on (time, sequence) with lazy cancellation:
// cancel() records the id and pop() skips it, which keeps push/pop at O(log n) with no
// per-event bookkeeping when nothing is cancelled.
#include <cassert>
#include <cstdint>
#include <optional>
#include <unordered_set>
#include <utility>
#include <vector>

namespace mlsys {

using EventId = uint64_t;

template <class Payload>
class EventQueue {
 public:
  struct Event {
    double time;
    EventId id;  // also the insertion sequence number
    Payload payload;
  };

  EventId push(double time, Payload payload) {
    EventId id = next_id_++;
    heap_.push_back(Event{time, id, std::move(payload)});
    sift_up(heap_.size() - 1);
    return id;
  }

  // Cancels a pending event. Cancelling an id that already fired or was cancelled is a no-op
  // as long as the caller does not reuse ids (they are never reused).
  void cancel(EventId id) {
    if (id < next_id_) cancelled_.insert(id);
  }

  bool empty() {
    drop_cancelled();
    return heap_.empty();
  }
  size_t size_upper_bound() const { return heap_.size(); }

  // Earliest pending event; queue must not be empty.
  const Event& top() {
    drop_cancelled();
    assert(!heap_.empty());
    return heap_.front();
  }

  Event pop() {
    drop_cancelled();
    assert(!heap_.empty());
    Event out = std::move(heap_.front());
    remove_top();
    return out;
  }

  void clear() {
    heap_.clear();
    cancelled_.clear();
  }
  void reserve(size_t n) { heap_.reserve(n); }

 private:
  static bool before(const Event& a, const Event& b) {
    return a.time < b.time || (a.time == b.time && a.id < b.id);
  }
  void drop_cancelled() {
    while (!cancelled_.empty() && !heap_.empty()) {
      auto it = cancelled_.find(heap_.front().id);
      if (it == cancelled_.end()) return;
      cancelled_.erase(it);
      remove_top();
    }
  }
  void remove_top() {
    Event last = std::move(heap_.back());
    heap_.pop_back();
    if (!heap_.empty()) {
      heap_.front() = std::move(last);
      sift_down(0);
    }
  }
  void sift_up(size_t i) {
    Event e = std::move(heap_[i]);
    while (i > 0) {
      size_t parent = (i - 1) / 4;
      if (!before(e, heap_[parent])) break;
      heap_[i] = std::move(heap_[parent]);
      i = parent;
    }
    heap_[i] = std::move(e);
  }
  void sift_down(size_t i) {
    const size_t n = heap_.size();
    Event e = std::move(heap_[i]);
    while (true) {
      size_t first = 4 * i + 1;
      if (first >= n) break;
      size_t best = first;
      size_t last = first + 4 < n ? first + 4 : n;
      for (size_t c = first + 1; c < last; ++c)
        if (before(heap_[c], heap_[best])) best = c;
      if (!before(heap_[best], e)) break;
      heap_[i] = std::move(heap_[best]);
      i = best;
    }
    heap_[i] = std::move(e);
  }

  std::vector<Event> heap_;
  std::unordered_set<EventId> cancelled_;
  EventId next_id_ = 0;
};

}  // namespace mlsys
