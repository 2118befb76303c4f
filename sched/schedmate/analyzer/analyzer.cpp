#include "sched/schedmate/analyzer/analyzer.hpp"

namespace mlsys::schedmate {

AnalyzerRegistry& analyzer_registry() {
  static AnalyzerRegistry r("analyzer backend");
  return r;
}

Json AnalyzerStats::to_json() const {
  Json j = Json::object();
  j["calls"] = calls;
  j["cache_hits"] = cache_hits;
  j["fallbacks"] = fallbacks;
  j["invalid_replies"] = invalid;
  j["errors"] = errors;
  return j;
}

}  // namespace mlsys::schedmate
