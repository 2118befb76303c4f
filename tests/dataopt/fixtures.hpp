#pragma once
#include "dataopt/data/source.hpp"

namespace mlsys::dataopt::test_fixtures {

// Generated labeled images: `train` rows, 50 test rows.
inline DataSource synthetic_source(int64_t train) {
  DataSourceSpec s;
  s.source = "synthetic";
  s.synthetic_train = train;
  s.synthetic_test = 50;
  return DataSource(s);
}

}  // namespace mlsys::dataopt::test_fixtures
