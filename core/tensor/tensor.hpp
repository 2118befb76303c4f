#pragma once
// Tensor: a handle (shared, like a smart pointer) to contiguous row-major storage on one device.
// Copying a Tensor shares the storage; views (rows(), row(), reshape()) share it too and are always
// contiguous because they only cut along the first dimension. Copies between devices are explicit
// (to(), copy_from()). Constness is that of the handle: data<T>() on a const Tensor is writable,
// which lets kernels take output views as `const Tensor&`.
//
//   Tensor x = Tensor::zeros({4, 3});                  // f32 on the host (cpu_context() pool)
//   Tensor g = Tensor::empty({4, 3}, DType::f32, ctx); // on ctx's device, from ctx's pool
//   Tensor top = x.rows(0, 2);                          // view of rows 0..1
//   Tensor d = x.to(Device::cuda(0));                   // explicit copy
//   float* p = x.data<float>();                         // checks the dtype, host or device pointer
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/tensor/device.hpp"
#include "core/tensor/dtype.hpp"
#include "core/tensor/shape.hpp"
#include "core/util/error.hpp"

namespace mlsys {

class DeviceContext;
class MemoryPool;

// A block of memory from a pool (returned on destruction) or wrapped external memory.
class Storage {
 public:
  Storage(std::shared_ptr<MemoryPool> pool, size_t bytes, void* stream);
  Storage(void* external, size_t bytes, Device device);  // not owned
  // Memory kept alive by `owner` (e.g. an adopted std::vector).
  Storage(void* data, size_t bytes, std::shared_ptr<void> owner);
  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;
  void* data() const { return data_; }
  size_t bytes() const { return bytes_; }
  Device device() const { return device_; }

 private:
  std::shared_ptr<MemoryPool> pool_;
  std::shared_ptr<void> owner_;
  void* data_ = nullptr;
  size_t bytes_ = 0;
  void* stream_ = nullptr;
  Device device_;
};

class Tensor {
 public:
  Tensor() = default;  // undefined: defined() == false (used for optional arguments)

  // ---- factories ----
  static Tensor empty(const Shape& shape, DType dtype, DeviceContext& ctx);
  static Tensor empty(const Shape& shape, DType dtype = DType::f32);  // host, cpu_context()
  static Tensor zeros(const Shape& shape, DType dtype, DeviceContext& ctx);
  static Tensor zeros(const Shape& shape, DType dtype = DType::f32);
  // Host f32 tensor filled with `value`.
  static Tensor full(const Shape& shape, float value);
  // Host tensor holding a copy of `v`; shape defaults to 1-D {v.size()} and must match v.size().
  template <class T>
  static Tensor from_vector(const std::vector<T>& v, Shape shape = Shape());
  // Adopts the vector's buffer without copying (it is freed with the last handle); use it for
  // large host arrays such as a graph's CSR to avoid a second copy at peak.
  template <class T>
  static Tensor from_vector(std::vector<T>&& v, Shape shape = Shape());
  // Non-owning tensor over memory the caller keeps alive (e.g. mmap'd features).
  static Tensor wrap(void* data, const Shape& shape, DType dtype, Device device = Device::cpu());
  // Host tensor over memory that `owner` keeps alive; the tensor holds `owner` until its last handle.
  static Tensor wrap(void* data, const Shape& shape, DType dtype, std::shared_ptr<void> owner);

  // ---- properties ----
  bool defined() const { return storage_ != nullptr; }
  DType dtype() const { return dtype_; }
  Device device() const;
  const Shape& shape() const { return shape_; }
  int rank() const { return shape_.rank(); }
  int64_t dim(int i) const;  // throws for i >= rank
  int64_t numel() const { return defined() ? shape_.numel() : 0; }
  size_t nbytes() const { return static_cast<size_t>(numel()) * dtype_size(dtype_); }
  int64_t rows() const { return rank() == 0 ? 1 : shape_[0]; }   // first dimension
  int64_t row_numel() const { return shape_.row_numel(); }       // elements per row
  std::string str() const;  // "f32[2, 3] on cpu"

  // ---- data access (host or device pointer, as the device says) ----
  void* raw() const;
  template <class T>
  T* data() const {
    if (dtype_of<T> != dtype_) throw_dtype_mismatch(dtype_name(dtype_of<T>));
    return static_cast<T*>(raw());
  }
  // Host copy of the elements (copies from a device when needed).
  template <class T>
  std::vector<T> to_vector() const;
  // Reads one f32 element of a host tensor by flat index (tests, small checks).
  float item(int64_t flat_index = 0) const;

  // ---- views (share storage) ----
  Tensor rows(int64_t begin, int64_t end) const;  // rows [begin, end) of the first dimension
  Tensor row(int64_t i) const;                    // drops the first dimension
  Tensor reshape(const Shape& shape) const;       // same numel; -1 not supported
  bool shares_storage_with(const Tensor& o) const { return storage_ && storage_ == o.storage_; }

  // ---- copies ----
  // Copy on ctx's device (allocated from ctx's pool); returns *this when already there.
  Tensor to(DeviceContext& ctx) const;
  Tensor to(Device device) const;  // through default_context(device)
  Tensor clone() const;            // deep copy on the same device
  // Copies src (same numel and dtype, any device) into this tensor's memory.
  void copy_from(const Tensor& src) const;
  // Sets every byte to zero (any device).
  void zero_() const;
  // Host-only element-type conversion (f32 <-> f16/bf16/i32/i64/u8; float -> int truncates).
  Tensor to_dtype(DType dtype) const;

 private:
  [[noreturn]] void throw_dtype_mismatch(const char* wanted) const;
  std::shared_ptr<Storage> storage_;
  size_t offset_ = 0;  // bytes
  Shape shape_;
  DType dtype_ = DType::f32;
};

// Raises Error "<what>: expected <shape>, got <shape>" unless t.shape() == s.
void check_shape(const Tensor& t, const Shape& s, const char* what);
// Byte copy between any two devices (cudaMemcpy when one side is CUDA).
void copy_bytes(void* dst, Device dst_device, const void* src, Device src_device, size_t bytes);

template <class T>
Tensor Tensor::from_vector(const std::vector<T>& v, Shape shape) {
  if (shape.rank() == 0) shape = Shape{static_cast<int64_t>(v.size())};
  if (shape.numel() != static_cast<int64_t>(v.size()))
    throw Error("Tensor::from_vector: shape " + shape.str() + " does not hold " + std::to_string(v.size()) + " elements");
  Tensor t = empty(shape, dtype_of<T>);
  if (!v.empty()) copy_bytes(t.raw(), Device::cpu(), v.data(), Device::cpu(), v.size() * sizeof(T));
  return t;
}

template <class T>
Tensor Tensor::from_vector(std::vector<T>&& v, Shape shape) {
  if (shape.rank() == 0) shape = Shape{static_cast<int64_t>(v.size())};
  if (shape.numel() != static_cast<int64_t>(v.size()))
    throw Error("Tensor::from_vector: shape " + shape.str() + " does not hold " + std::to_string(v.size()) + " elements");
  auto owner = std::make_shared<std::vector<T>>(std::move(v));
  Tensor t;
  t.storage_ = std::make_shared<Storage>(static_cast<void*>(owner->data()), owner->size() * sizeof(T),
                                         std::shared_ptr<void>(owner));
  t.shape_ = shape;
  t.dtype_ = dtype_of<T>;
  return t;
}

template <class T>
std::vector<T> Tensor::to_vector() const {
  std::vector<T> v(static_cast<size_t>(numel()));
  if (!v.empty()) copy_bytes(v.data(), Device::cpu(), data<T>(), device(), v.size() * sizeof(T));
  return v;
}

}  // namespace mlsys
