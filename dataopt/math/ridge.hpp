#pragma once
// Step 4: the alignment map T (n x n) minimizing ||A T - B||^2 + lambda ||T||^2, with A the
// participant's projected embeddings of S and B the reference's. lambda = ridge * mean(diag(A^T A))
// so one setting works whatever the embedding scale. Solved by Cholesky in double precision.
#include "dataopt/math/matrix.hpp"

namespace mlsys::dataopt {

Matrix ridge_fit(const Matrix& a, const Matrix& b, double ridge);
Matrix identity_matrix(int64_t n);

}  // namespace mlsys::dataopt
