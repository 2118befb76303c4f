#include "dataopt/data/npy.hpp"

namespace mlsys::dataopt {

void write_npy(const std::filesystem::path& path, const Tensor& t) {
  std::vector<int64_t> shape;
  for (int i = 0; i < t.rank(); ++i) shape.push_back(t.dim(i));
  mlsys::write_npy(path, shape, t.to_vector<float>());  // from any device
}

}  // namespace mlsys::dataopt
