#pragma once
#include <string>

#include "tests/common/test_util.hpp"

namespace mlsys::workload::test {

inline std::string fixture(const std::string& name) {
  return (mlsys::test::source_dir() / "tests/sched/workload/traces/fixtures" / name).string();
}

}  // namespace mlsys::workload::test
