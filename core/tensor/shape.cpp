#include "core/tensor/shape.hpp"

#include "core/util/error.hpp"

namespace mlsys {

Shape::Shape(std::initializer_list<int64_t> dims) {
  for (int64_t d : dims) push(d);
}

void Shape::push(int64_t dim) {
  if (rank_ >= kMaxRank) throw Error("tensor shape has more than 4 dimensions");
  if (dim < 0) throw Error("tensor shape has a negative dimension (" + std::to_string(dim) + ")");
  d_[static_cast<size_t>(rank_++)] = dim;
}

int64_t Shape::numel() const {
  int64_t n = 1;
  for (int i = 0; i < rank_; ++i) n *= d_[static_cast<size_t>(i)];
  return n;
}

int64_t Shape::row_numel() const {
  int64_t n = 1;
  for (int i = 1; i < rank_; ++i) n *= d_[static_cast<size_t>(i)];
  return n;
}

std::string Shape::str() const {
  std::string s = "[";
  for (int i = 0; i < rank_; ++i) {
    if (i) s += ", ";
    s += std::to_string(d_[static_cast<size_t>(i)]);
  }
  return s + "]";
}

bool Shape::operator==(const Shape& o) const {
  if (rank_ != o.rank_) return false;
  for (int i = 0; i < rank_; ++i)
    if (d_[static_cast<size_t>(i)] != o.d_[static_cast<size_t>(i)]) return false;
  return true;
}

}  // namespace mlsys
