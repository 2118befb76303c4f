#pragma once
// Character n-gram TF-IDF vectors with cosine similarity, for retrieving similar past jobs by the
// text of their commands. Documents are added online; IDF reflects the documents added so far.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace mlsys::schedmate {

class NgramIndex {
 public:
  explicit NgramIndex(int n = 3) : n_(n) {}
  using Counts = std::unordered_map<uint64_t, float>;
  // Term counts of a text (hashed n-grams of the padded, lower-cased text).
  Counts counts(std::string_view text) const;
  // Adds a document's n-grams to the document frequencies; returns its id.
  size_t add(const Counts& c);
  // Cosine similarity of TF-IDF vectors under the current IDF.
  double cosine(const Counts& a, const Counts& b) const;
  size_t documents() const { return docs_; }

 private:
  double idf(uint64_t gram) const;
  int n_;
  size_t docs_ = 0;
  std::unordered_map<uint64_t, uint32_t> df_;
};

}  // namespace mlsys::schedmate
