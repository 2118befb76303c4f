#pragma once
// A set of dense ids 0..n-1 with O(log64 n) insert, erase and smallest member: a bitset with one
// summary level per 64x (a word of level k+1 has bit i set when word i of level k is non-zero).
// The engine keeps its pending jobs here, so a time-series sample finds the oldest pending job
// without scanning the trace.
#include <bit>
#include <cstdint>
#include <vector>

namespace mlsys::sim {

class IdSet {
 public:
  IdSet() = default;
  explicit IdSet(size_t n) {
    do {
      n = (n + 63) / 64;
      levels_.emplace_back(n, uint64_t{0});
    } while (n > 1);
  }
  bool empty() const { return levels_.empty() || levels_.back()[0] == 0; }
  void insert(size_t id) {
    for (auto& words : levels_) {
      words[id / 64] |= uint64_t{1} << (id % 64);
      id /= 64;
    }
  }
  void erase(size_t id) {
    for (auto& words : levels_) {
      uint64_t& w = words[id / 64];
      w &= ~(uint64_t{1} << (id % 64));
      if (w != 0) return;  // the summary bits above stay set
      id /= 64;
    }
  }
  // The smallest member; only when !empty().
  size_t min() const {
    size_t id = 0;
    for (size_t k = levels_.size(); k-- > 0;) id = id * 64 + static_cast<size_t>(std::countr_zero(levels_[k][id]));
    return id;
  }

 private:
  std::vector<std::vector<uint64_t>> levels_;  // levels_[0]: one bit per id
};

}  // namespace mlsys::sim
