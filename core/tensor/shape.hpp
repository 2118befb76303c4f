#pragma once
// Tensor shape: up to 4 dimensions, row-major (the last dimension is contiguous).
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>

namespace mlsys {

class Shape {
 public:
  static constexpr int kMaxRank = 4;
  Shape() = default;
  Shape(std::initializer_list<int64_t> dims);  // throws Error for rank > 4 or negative dims
  template <class It>
  static Shape from(It begin, It end) {
    Shape s;
    for (It it = begin; it != end; ++it) s.push(static_cast<int64_t>(*it));
    return s;
  }

  int rank() const { return rank_; }
  int64_t operator[](int i) const { return d_[static_cast<size_t>(i)]; }
  int64_t& operator[](int i) { return d_[static_cast<size_t>(i)]; }
  int64_t numel() const;
  // Product of the dimensions after the first (elements in one row); 1 for rank <= 1.
  int64_t row_numel() const;
  void push(int64_t dim);
  std::string str() const;  // "[2, 3]"
  bool operator==(const Shape& o) const;
  bool operator!=(const Shape& o) const { return !(*this == o); }

 private:
  std::array<int64_t, kMaxRank> d_{};
  int rank_ = 0;
};

}  // namespace mlsys
