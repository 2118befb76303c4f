#pragma once
// Discrete-event queue: time-ordered, ties broken by insertion order (so simulations are
// deterministic), cancellable.
//
// A radix heap over 128-bit keys packing (time, insertion sequence, payload) so that integer
// order equals (time, sequence) order. It relies on the discrete-event property that nothing is
// scheduled before the last event popped (push() enforces it), and in exchange push is O(1) and
// pop amortized O(key bits) with sequential memory access: it runs about twice as fast as a binary
// heap on a million random events (bench/core_event_queue.cpp).
// Payloads of up to 4 trivially copyable bytes (a job index, an event code) live inside the key;
// larger payloads live in a slot array. Cancellation is lazy: cancel() records the sequence
// number and the event is dropped when it would be popped, so queues that never cancel pay
// nothing for it. A peek (top_time) never advances time, so events may still be scheduled
// anywhere at or after the last popped event.
//
// Ties compare 32-bit insertion sequence numbers, which orders correctly unless two pending
// events with exactly the same time were pushed across a wrap of the counter (2^32 pushes).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_set>
#include <utility>
#include <vector>

namespace mlsys {

using EventId = uint64_t;

template <class Payload>
class EventQueue {
  static constexpr bool kInline = sizeof(Payload) <= 4 && std::is_trivially_copyable_v<Payload>;

 public:
  struct Event {
    double time;
    EventId id;
    Payload payload;
  };

  // Throws std::logic_error when `time` is earlier than the last popped event's time.
  EventId push(double time, Payload payload) {
    EventId id = seq_;
    Key k = make_key(time, static_cast<uint32_t>(id), 0);
    if (k < floor_)
      throw std::logic_error("event scheduled at t=" + std::to_string(time) + ", before the current time t=" +
                             std::to_string(key_time(floor_)));
    uint32_t low = 0;
    if constexpr (kInline) {
      std::memcpy(&low, &payload, sizeof payload);
    } else {
      low = store(std::move(payload));
    }
    k |= low;
    ++seq_;
    done_.push_back(false);
    // k >= floor_ implies k > last_: last_ is the last popped key, and k has a later sequence.
    buckets_[bucket_of(k)].push_back(k);
    ++size_;
    ++live_;
    peeked_ = false;
    return id;
  }

  // Cancels a pending event; cancelling one that already fired or was cancelled is a no-op.
  void cancel(EventId id) {
    if (id >= seq_ || done_[id]) return;
    done_[id] = true;
    cancelled_.insert(static_cast<uint32_t>(id));
    --live_;
    peeked_ = false;
  }

  bool empty() const { return live_ == 0; }
  size_t size() const { return live_; }

  // Time of the earliest pending event, without consuming it; the queue must not be empty.
  double top_time() {
    if (!peeked_) {
      peek_ = find_min_live();
      peeked_ = true;
    }
    return key_time(peek_);
  }

  // Removes and returns the earliest pending event; the queue must not be empty.
  Event pop() {
    peeked_ = false;
    while (true) {
      if (buckets_[0].empty()) refill();
      Key k = buckets_[0].back();
      buckets_[0].pop_back();
      --size_;
      if (!cancelled_.empty()) {
        auto it = cancelled_.find(static_cast<uint32_t>(k >> 32));
        if (it != cancelled_.end()) {
          cancelled_.erase(it);
          if constexpr (!kInline) free_.push_back(static_cast<uint32_t>(k));
          continue;
        }
      }
      --live_;
      floor_ = k & ~static_cast<Key>(0xffffffffu);
      Event e = make_event(k);
      done_[e.id] = true;
      return e;
    }
  }

  void clear() {
    for (auto& b : buckets_) b.clear();
    size_ = live_ = 0;
    last_ = floor_ = 0;
    peeked_ = false;
    cancelled_.clear();
    slots_.clear();
    free_.clear();
    std::fill(done_.begin(), done_.end(), true);
  }
  void reserve(size_t n) {
    buckets_[kBuckets - 1].reserve(n);
    done_.reserve(n);
  }

 private:
  using Key = unsigned __int128;
  static constexpr size_t kBuckets = 129;

  static Key make_key(double time, uint32_t seq, uint32_t low) {
    time += 0.0;  // -0.0 -> +0.0
    uint64_t b;
    std::memcpy(&b, &time, sizeof b);
    // Order-preserving map of IEEE doubles onto unsigned integers.
    b = (b & (1ull << 63)) ? ~b : (b | (1ull << 63));
    return (static_cast<Key>(b) << 64) | (static_cast<Key>(seq) << 32) | low;
  }
  static double key_time(Key k) {
    uint64_t b = static_cast<uint64_t>(k >> 64);
    b = (b & (1ull << 63)) ? (b & ~(1ull << 63)) : ~b;
    double t;
    std::memcpy(&t, &b, sizeof t);
    return t;
  }
  // Bucket i > 0 holds keys whose highest bit differing from last_ is bit i-1.
  size_t bucket_of(Key k) const {
    Key x = k ^ last_;
    uint64_t hi = static_cast<uint64_t>(x >> 64), lo = static_cast<uint64_t>(x);
    if (hi) return 128 - static_cast<size_t>(__builtin_clzll(hi));
    if (lo) return 64 - static_cast<size_t>(__builtin_clzll(lo));
    return 0;
  }
  bool is_cancelled(Key k) const {
    return !cancelled_.empty() && cancelled_.count(static_cast<uint32_t>(k >> 32)) != 0;
  }
  // The smallest live key, found without moving anything (so a peek never advances time).
  Key find_min_live() const {
    for (const auto& b : buckets_) {
      bool found = false;
      Key m = 0;
      for (Key k : b) {
        if (is_cancelled(k)) continue;
        if (!found || k < m) m = k;
        found = true;
      }
      if (found) return m;  // every key in a lower bucket is smaller than any in a higher one
    }
    return 0;
  }
  // Moves the smallest non-empty bucket's minimum to last_ and redistributes that bucket; every
  // key lands in a lower bucket, and bucket 0 receives exactly the minimum (keys are unique).
  void refill() {
    size_t i = 1;
    while (buckets_[i].empty()) ++i;
    auto& b = buckets_[i];
    Key m = b[0];
    for (Key k : b) m = k < m ? k : m;
    last_ = m;
    for (Key k : b) buckets_[bucket_of(k)].push_back(k);
    b.clear();
  }
  uint32_t store(Payload&& p) {
    if (!free_.empty()) {
      uint32_t s = free_.back();
      free_.pop_back();
      slots_[s] = std::move(p);
      return s;
    }
    slots_.push_back(std::move(p));
    return static_cast<uint32_t>(slots_.size() - 1);
  }
  Event make_event(Key k) {
    uint32_t low = static_cast<uint32_t>(k);
    EventId id = (seq_ & ~0xffffffffull) | static_cast<uint32_t>(k >> 32);
    if (id >= seq_) id -= 1ull << 32;  // pushed before the last wrap of the low 32 bits
    if constexpr (kInline) {
      Payload p;
      std::memcpy(&p, &low, sizeof p);
      return Event{key_time(k), id, p};
    } else {
      Event e{key_time(k), id, std::move(slots_[low])};
      free_.push_back(low);
      return e;
    }
  }

  Key last_ = 0;   // radix base: every stored key is >= last_
  Key floor_ = 0;  // (time, 0) of the last event returned: nothing may be scheduled before it
  Key peek_ = 0;
  bool peeked_ = false;
  size_t size_ = 0;  // keys stored, cancelled ones included
  size_t live_ = 0;  // pending events
  std::vector<bool> done_;  // per event id: fired or cancelled
  uint64_t seq_ = 0;
  std::vector<Key> buckets_[kBuckets];
  std::unordered_set<uint32_t> cancelled_;
  std::vector<Payload> slots_;
  std::vector<uint32_t> free_;
};

}  // namespace mlsys
