// The main of every doctest binary: runs the cases, then turns "every case that ran was skipped"
// into exit code 77 (ctest's SKIP_RETURN_CODE), so a missing prerequisite is never counted as a
// pass (tests/common/skip.hpp).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <string>

#include "tests/common/skip.hpp"

namespace mlsys::test {
namespace {

std::mutex g_mu;
int g_ran = 0;                           // test cases started
int g_skipped = 0;                       // of those, skipped (each counted once)
bool g_current_skipped = false;          // the running case already recorded a skip
std::map<std::string, int> g_by_reason;  // skipped cases per reason

// Counts the test cases that start (a case re-entered for its subcases counts once).
struct SkipListener : doctest::IReporter {
  explicit SkipListener(const doctest::ContextOptions&) {}
  void report_query(const doctest::QueryData&) override {}
  void test_run_start() override {}
  void test_run_end(const doctest::TestRunStats&) override {}
  void test_case_start(const doctest::TestCaseData&) override {
    std::lock_guard<std::mutex> lock(g_mu);
    ++g_ran;
    g_current_skipped = false;
  }
  void test_case_reenter(const doctest::TestCaseData&) override {}
  void test_case_end(const doctest::CurrentTestCaseStats&) override {}
  void test_case_exception(const doctest::TestCaseException&) override {}
  void subcase_start(const doctest::SubcaseSignature&) override {}
  void subcase_end() override {}
  void log_assert(const doctest::AssertData&) override {}
  void log_message(const doctest::MessageData&) override {}
  void test_case_skipped(const doctest::TestCaseData&) override {}
};
REGISTER_LISTENER("mlsys_skips", 1, SkipListener);

}  // namespace

void record_skip(const std::string& reason, const std::string& message) {
  std::printf("SKIPPED [%s]: %s\n", reason.c_str(), message.c_str());
  std::fflush(stdout);
  std::lock_guard<std::mutex> lock(g_mu);
  if (g_current_skipped) return;
  g_current_skipped = true;
  ++g_skipped;
  ++g_by_reason[reason];
}

}  // namespace mlsys::test

int main(int argc, char** argv) {
  using namespace mlsys::test;
  doctest::Context context(argc, argv);
  const int result = context.run();
  if (context.shouldExit()) return result;
  if (g_skipped > 0) {
    std::string by;
    for (const auto& [reason, n] : g_by_reason) by += (by.empty() ? "" : ", ") + reason + ": " + std::to_string(n);
    std::printf("skipped %d of %d test case(s) (%s)\n", g_skipped, g_ran, by.c_str());
  }
  if (result == 0 && g_ran > 0 && g_skipped == g_ran) {
    std::string reasons;
    for (const auto& [reason, n] : g_by_reason) reasons += (reasons.empty() ? "" : ", ") + reason;
    std::printf("TEST SKIPPED [%s]\n", reasons.c_str());  // what tests/common/skip_summary.py counts
    return kSkipExitCode;
  }
  return result;
}
