#pragma once
#include <string>

#include "tests/common/test_util.hpp"

namespace mlsys::sim::test {

inline std::string fixture(const std::string& name) {
  return (mlsys::test::source_dir() / "tests/sim/traces/fixtures" / name).string();
}

}  // namespace mlsys::sim::test
