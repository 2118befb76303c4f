// The default analyzer: rules, templates and retrieval, no network; fast and deterministic.
#include "sched/schedmate/analyzer/analyzer.hpp"

namespace mlsys::schedmate {
namespace {

class EmbeddedAnalyzer final : public Analyzer {
 public:
  std::string name() const override { return "embedded"; }
  JobFacts extract(const JobText& job, const std::string&) override { return extract_facts(job); }
  std::optional<LearnedPattern> pattern(const std::vector<std::string>& sample, const std::string&) override {
    return learn_pattern(sample);
  }
  Diagnosis diagnose(const std::vector<std::string>& lines, const RunEvidence& run, const std::string&) override {
    return diagnose_lines(lines, run);
  }
};

const bool registered = analyzer_registry().add(
    "embedded", "Rules, Drain templates and k-NN retrieval in process (default; no network, deterministic)",
    [](const AnalyzerOptions&) { return std::make_unique<EmbeddedAnalyzer>(); });

}  // namespace
}  // namespace mlsys::schedmate
