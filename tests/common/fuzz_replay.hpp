#pragma once
// Replays a fuzz target (tests/fuzz/fuzz_<name>.cpp built with MLSYS_FUZZ_REPLAY: a plain
// function) in the normal ctest on cases generated at test time: the well-formed seeds given,
// the empty input, and seeded mutations of each seed (byte flips, cuts, repeated pieces, longer
// digit runs, 0xff runs over size fields). A target aborts, crashes or throws
// something other than what it catches on a bug; CHECK_NOTHROW turns that into a failed test.
#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/util/random.hpp"

namespace mlsys::test {

inline std::string mutate_bytes(const std::string& seed, Rng& rng) {
  std::string s = seed;
  const int edits = 1 + static_cast<int>(rng.below(4));
  for (int e = 0; e < edits && !s.empty(); ++e) {
    const size_t at = rng.below(s.size());
    switch (rng.below(5)) {
      case 0: s[at] = static_cast<char>(rng.below(256)); break;               // flip a byte
      case 1: s = s.substr(0, at); break;                                     // cut
      case 2: s.insert(at, s.substr(at, rng.below(32))); break;               // repeat a piece
      case 3: s.replace(at, std::min<size_t>(4, s.size() - at), "\xff\xff\xff\xff"); break;  // a huge size, ZIP64 marker
      default: {  // a longer digit run: sizes and counts in headers and text fields
        const size_t d = s.find_first_of("0123456789", at);
        if (d != std::string::npos) s.insert(d, std::to_string(rng.below(1000000)));
      }
    }
  }
  return s;
}

inline void replay_fuzz_target(const std::function<int(const uint8_t*, size_t)>& target,
                               const std::vector<std::string>& seeds, uint64_t seed, int per_seed) {
  Rng rng(seed);
  std::vector<std::string> cases = seeds;
  cases.emplace_back();
  for (const auto& s : seeds)
    for (int i = 0; i < per_seed; ++i) cases.push_back(mutate_bytes(s, rng));
  for (const auto& c : cases) {
    CAPTURE(c.size());
    CHECK_NOTHROW(target(reinterpret_cast<const uint8_t*>(c.data()), c.size()));
  }
}

}  // namespace mlsys::test
