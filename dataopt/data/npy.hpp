#pragma once
// NumPy .npy arrays (format versions 1-3, C order). Reading converts float32/float64/int32/int64/
// uint8 elements to float; writing always produces float32 (or int32 for labels) version 1.0.
#include <cstdint>
#include <filesystem>
#include <vector>

#include "core/tensor/tensor.hpp"

namespace mlsys::dataopt {

struct NpyArray {
  std::vector<int64_t> shape;
  std::vector<float> data;  // row-major
  int64_t rows() const { return shape.empty() ? 0 : shape[0]; }
  int64_t row_size() const;  // product of shape[1:]
};

// Throws InputError naming the file for a bad header, Fortran order, unsupported dtype or a
// size that does not match the header.
NpyArray read_npy(const std::filesystem::path& path);
void write_npy(const std::filesystem::path& path, const std::vector<int64_t>& shape, const std::vector<float>& data);
// An f32 tensor (any device) with its shape.
void write_npy(const std::filesystem::path& path, const Tensor& t);
void write_npy_int(const std::filesystem::path& path, const std::vector<int32_t>& data);

}  // namespace mlsys::dataopt
