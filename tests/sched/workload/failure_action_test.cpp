#include <doctest/doctest.h>

#include <string>

#include "core/util/error.hpp"
#include "sched/workload/failure_action.hpp"

using namespace mlsys;
using namespace mlsys::workload;

TEST_CASE("failure actions: one name each, parsed back, an empty column is no advice") {
  for (auto a : {FailureAction::None, FailureAction::Resubmit, FailureAction::ResubmitExcludeNode,
                 FailureAction::ResubmitMoreMemory, FailureAction::DoNotRetry})
    CHECK(parse_failure_action(to_string(a)) == a);
  CHECK(std::string(to_string(FailureAction::ResubmitExcludeNode)) == "resubmit_exclude_node");
  CHECK(parse_failure_action("") == FailureAction::None);
  CHECK(failure_action_names() == "(empty), resubmit, resubmit_exclude_node, resubmit_more_memory, do_not_retry");
  CHECK_THROWS_WITH_AS(parse_failure_action("retry"), doctest::Contains("unknown failure action 'retry'"), ConfigError);
}
