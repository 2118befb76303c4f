#include "sched/schedmate/advisor/tfidf.hpp"

#include <cmath>

namespace mlsys::schedmate {

NgramIndex::Counts NgramIndex::counts(std::string_view text) const {
  std::string padded = " " + std::string(text) + " ";
  Counts c;
  const size_t n = static_cast<size_t>(n_);
  for (size_t i = 0; i + n <= padded.size(); ++i) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (size_t k = 0; k < n; ++k) {
      char ch = padded[i + k];
      if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
      h = (h ^ static_cast<unsigned char>(ch)) * 1099511628211ull;
    }
    c[h] += 1.0f;
  }
  return c;
}

size_t NgramIndex::add(const Counts& c) {
  for (const auto& [g, n] : c) ++df_[g];
  return docs_++;
}

double NgramIndex::idf(uint64_t gram) const {
  auto it = df_.find(gram);
  double df = it == df_.end() ? 0.0 : it->second;
  return std::log((1.0 + static_cast<double>(docs_)) / (1.0 + df)) + 1.0;
}

double NgramIndex::cosine(const Counts& a, const Counts& b) const {
  double dot = 0, na = 0, nb = 0;
  for (const auto& [g, x] : a) {
    double w = x * idf(g);
    na += w * w;
    auto it = b.find(g);
    if (it != b.end()) dot += w * it->second * idf(g);
  }
  for (const auto& [g, y] : b) {
    double w = y * idf(g);
    nb += w * w;
  }
  if (na <= 0 || nb <= 0) return 0;
  return dot / std::sqrt(na * nb);
}

}  // namespace mlsys::schedmate
