#include "core/tensor/tensor.hpp"

#include <cstring>

#include "core/tensor/device_context.hpp"
#include "core/tensor/device_backend.hpp"
#include "core/tensor/memory_pool.hpp"

namespace mlsys {

Storage::Storage(std::shared_ptr<MemoryPool> pool, size_t bytes, void* stream)
    : pool_(std::move(pool)), bytes_(bytes), stream_(stream), device_(pool_->device()) {
  data_ = pool_->allocate(bytes, stream);
}

Storage::Storage(void* external, size_t bytes, Device device) : data_(external), bytes_(bytes), device_(device) {}

Storage::Storage(void* data, size_t bytes, std::shared_ptr<void> owner)
    : owner_(std::move(owner)), data_(data), bytes_(bytes), device_(Device::cpu()) {}

Storage::~Storage() {
  if (pool_) pool_->deallocate(data_, bytes_, stream_);
}

Tensor Tensor::empty(const Shape& shape, DType dtype, DeviceContext& ctx) {
  Tensor t;
  size_t bytes = static_cast<size_t>(shape.numel()) * dtype_size(dtype);
  t.storage_ = std::make_shared<Storage>(ctx.pool_ptr(), bytes, ctx.stream());
  t.shape_ = shape;
  t.dtype_ = dtype;
  return t;
}

Tensor Tensor::empty(const Shape& shape, DType dtype) { return empty(shape, dtype, cpu_context()); }

Tensor Tensor::zeros(const Shape& shape, DType dtype, DeviceContext& ctx) {
  Tensor t = empty(shape, dtype, ctx);
  t.zero_();
  return t;
}

Tensor Tensor::zeros(const Shape& shape, DType dtype) { return zeros(shape, dtype, cpu_context()); }

Tensor Tensor::full(const Shape& shape, float value) {
  Tensor t = empty(shape, DType::f32);
  float* p = t.data<float>();
  for (int64_t i = 0; i < t.numel(); ++i) p[i] = value;
  return t;
}

Tensor Tensor::wrap(void* data, const Shape& shape, DType dtype, Device device) {
  Tensor t;
  t.storage_ = std::make_shared<Storage>(data, static_cast<size_t>(shape.numel()) * dtype_size(dtype), device);
  t.shape_ = shape;
  t.dtype_ = dtype;
  return t;
}

Tensor Tensor::wrap(void* data, const Shape& shape, DType dtype, std::shared_ptr<void> owner) {
  Tensor t;
  t.storage_ = std::make_shared<Storage>(data, static_cast<size_t>(shape.numel()) * dtype_size(dtype), std::move(owner));
  t.shape_ = shape;
  t.dtype_ = dtype;
  return t;
}

Device Tensor::device() const { return storage_ ? storage_->device() : Device::cpu(); }

int64_t Tensor::dim(int i) const {
  if (i < 0 || i >= rank()) throw Error("tensor " + str() + " has no dimension " + std::to_string(i));
  return shape_[i];
}

std::string Tensor::str() const {
  if (!defined()) return "undefined tensor";
  return std::string(dtype_name(dtype_)) + shape_.str() + " on " + device().str();
}

void* Tensor::raw() const {
  if (!storage_) return nullptr;
  return static_cast<char*>(storage_->data()) + offset_;
}

void Tensor::throw_dtype_mismatch(const char* wanted) const {
  throw Error(std::string("tensor ") + str() + " accessed as " + wanted);
}

float Tensor::item(int64_t i) const {
  if (i < 0 || i >= numel()) throw Error("Tensor::item: index " + std::to_string(i) + " out of range for " + str());
  float v = 0;
  copy_bytes(&v, Device::cpu(), data<float>() + i, device(), sizeof(float));
  return v;
}

Tensor Tensor::rows(int64_t begin, int64_t end) const {
  if (rank() == 0) throw Error("Tensor::rows on a scalar tensor");
  if (begin < 0 || end < begin || end > shape_[0])
    throw Error("Tensor::rows(" + std::to_string(begin) + ", " + std::to_string(end) + ") out of range for " + str());
  Tensor t = *this;
  t.shape_[0] = end - begin;
  t.offset_ += static_cast<size_t>(begin * row_numel()) * dtype_size(dtype_);
  return t;
}

Tensor Tensor::row(int64_t i) const {
  Tensor r = rows(i, i + 1);
  Shape s;
  for (int d = 1; d < rank(); ++d) s.push(shape_[d]);
  r.shape_ = s;
  return r;
}

Tensor Tensor::reshape(const Shape& shape) const {
  if (shape.numel() != numel()) throw Error("Tensor::reshape " + str() + " to " + shape.str() + ": element counts differ");
  Tensor t = *this;
  t.shape_ = shape;
  return t;
}

Tensor Tensor::to(DeviceContext& ctx) const {
  if (!defined() || device() == ctx.device()) return *this;
  Tensor t = empty(shape_, dtype_, ctx);
  t.copy_from(*this);
  return t;
}

Tensor Tensor::to(Device d) const { return to(default_context(d)); }

Tensor Tensor::clone() const {
  if (!defined()) return *this;
  Tensor t = empty(shape_, dtype_, default_context(device()));
  t.copy_from(*this);
  return t;
}

void Tensor::copy_from(const Tensor& src) const {
  if (src.numel() != numel() || src.dtype() != dtype_)
    throw Error("Tensor::copy_from: " + src.str() + " into " + str() + " (numel and dtype must match)");
  copy_bytes(raw(), device(), src.raw(), src.device(), nbytes());
}

void Tensor::zero_() const {
  if (nbytes() == 0) return;
  device_backend(device().kind).zero(device().index, raw(), nbytes());
}

template <class From, class To>
static void convert_numbers(const From* in, To* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = static_cast<To>(in[i]);
}

Tensor Tensor::to_dtype(DType dt) const {
  if (!device().is_cpu()) throw Error("Tensor::to_dtype runs on host tensors; copy " + str() + " to cpu first");
  if (dt == dtype_) return clone();
  Tensor f = empty(shape_, DType::f32);
  float* fp = f.data<float>();
  int64_t n = numel();
  size_t un = static_cast<size_t>(n);
  switch (dtype_) {
    case DType::f32: std::memcpy(fp, raw(), nbytes()); break;
    case DType::f16: half_to_floats(data<Half>(), fp, un); break;
    case DType::bf16: bf16_to_floats(data<BFloat16>(), fp, un); break;
    case DType::i32: convert_numbers(data<int32_t>(), fp, n); break;
    case DType::i64: convert_numbers(data<int64_t>(), fp, n); break;
    case DType::u8: convert_numbers(data<uint8_t>(), fp, n); break;
    case DType::f64: convert_numbers(data<double>(), fp, n); break;
  }
  if (dt == DType::f32) return f;
  // Integer targets convert from the original values directly to keep i64 exact.
  Tensor t = empty(shape_, dt);
  switch (dt) {
    case DType::f32: break;
    case DType::f16: floats_to_half(fp, t.data<Half>(), un); break;
    case DType::bf16: floats_to_bf16(fp, t.data<BFloat16>(), un); break;
    case DType::i32:
      if (dtype_ == DType::i64) convert_numbers(data<int64_t>(), t.data<int32_t>(), n);
      else convert_numbers(fp, t.data<int32_t>(), n);
      break;
    case DType::i64:
      if (dtype_ == DType::i32) convert_numbers(data<int32_t>(), t.data<int64_t>(), n);
      else convert_numbers(fp, t.data<int64_t>(), n);
      break;
    case DType::u8: convert_numbers(fp, t.data<uint8_t>(), n); break;
    case DType::f64:
      if (dtype_ == DType::i64) convert_numbers(data<int64_t>(), t.data<double>(), n);
      else if (dtype_ == DType::i32) convert_numbers(data<int32_t>(), t.data<double>(), n);
      else convert_numbers(fp, t.data<double>(), n);
      break;
  }
  return t;
}

void check_shape(const Tensor& t, const Shape& s, const char* what) {
  if (!t.defined()) throw Error(std::string(what) + ": expected a tensor of shape " + s.str() + ", got none");
  if (t.shape() != s) throw Error(std::string(what) + ": expected shape " + s.str() + ", got " + t.shape().str());
}

void copy_bytes(void* dst, Device dst_device, const void* src, Device src_device, size_t bytes) {
  if (bytes == 0 || dst == src) return;
  // The device side's backend copies (host pointers on either side are allowed).
  device_backend(dst_device.is_cpu() ? src_device.kind : dst_device.kind).copy(dst, src, bytes);
}

}  // namespace mlsys
