#pragma once
#include "dataopt/data/image_set.hpp"
#include "dataopt/math/matrix.hpp"

namespace mlsys::dataopt {

// One image per row (copies the pixels).
inline Matrix as_matrix(const ImageSet& s) {
  Matrix m(s.n, s.dim());
  m.v = s.pixels;
  return m;
}

}  // namespace mlsys::dataopt
