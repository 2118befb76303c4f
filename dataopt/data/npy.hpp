#pragma once
// CoOpt's .npy files go through the one reader and writer in core/util/npy.hpp (read_npy,
// NpyArray::floats, write_npy); this adds writing a tensor: always float32, format 1.0.
#include <filesystem>

#include "core/tensor/tensor.hpp"
#include "core/util/npy.hpp"

namespace mlsys::dataopt {

// An f32 tensor (any device) with its shape.
void write_npy(const std::filesystem::path& path, const Tensor& t);
using mlsys::write_npy;

}  // namespace mlsys::dataopt
