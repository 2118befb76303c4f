#include "core/nn/state.hpp"

#include <cstring>

namespace mlsys::nn {

namespace {
constexpr char kMagic[8] = {'M', 'L', 'S', 'Y', 'S', 'N', 'N', '1'};

template <class T>
void put(std::vector<uint8_t>& out, T v) {
  const size_t at = out.size();
  out.resize(at + sizeof(T));
  std::memcpy(out.data() + at, &v, sizeof(T));
}

class Reader {
 public:
  explicit Reader(const std::vector<uint8_t>& b) : b_(b) {}
  template <class T>
  T get() {
    T v;
    std::memcpy(&v, take(sizeof(T)), sizeof(T));
    return v;
  }
  const uint8_t* take(size_t n) {
    if (n > b_.size() - pos_) throw InputError("tensor blob is truncated at byte " + std::to_string(pos_));
    const uint8_t* p = b_.data() + pos_;
    pos_ += n;
    return p;
  }

 private:
  const std::vector<uint8_t>& b_;
  size_t pos_ = 0;
};
}  // namespace

std::vector<uint8_t> save_tensors(const NamedTensors& tensors) {
  std::vector<uint8_t> out(8);
  std::memcpy(out.data(), kMagic, 8);
  put<uint64_t>(out, tensors.size());
  for (const auto& [name, t] : tensors) {
    put<uint32_t>(out, static_cast<uint32_t>(name.size()));
    const size_t name_at = out.size();
    out.resize(name_at + name.size());
    if (!name.empty()) std::memcpy(out.data() + name_at, name.data(), name.size());
    put<uint8_t>(out, static_cast<uint8_t>(t.dtype()));
    put<uint8_t>(out, static_cast<uint8_t>(t.rank()));
    for (int d = 0; d < t.rank(); ++d) put<int64_t>(out, t.shape()[d]);
    put<uint64_t>(out, t.nbytes());
    size_t at = out.size();
    out.resize(at + t.nbytes());
    copy_bytes(out.data() + at, Device::cpu(), t.raw(), t.device(), t.nbytes());
  }
  return out;
}

NamedTensors load_tensors(const std::vector<uint8_t>& blob) { return load_tensors(blob, cpu_context()); }

NamedTensors load_tensors(const std::vector<uint8_t>& blob, DeviceContext& ctx) {
  Reader r(blob);
  if (std::memcmp(r.take(8), kMagic, 8) != 0) throw InputError("not an mlsys tensor blob (bad magic)");
  const uint64_t count = r.get<uint64_t>();
  NamedTensors out;
  for (uint64_t i = 0; i < count; ++i) {
    const uint32_t len = r.get<uint32_t>();
    const uint8_t* np = r.take(len);
    std::string name(reinterpret_cast<const char*>(np), len);
    const uint8_t dt = r.get<uint8_t>();
    const uint8_t rank = r.get<uint8_t>();
    if (dt > static_cast<uint8_t>(kLastDType) || rank > Shape::kMaxRank)
      throw InputError("tensor blob entry '" + name + "' has a bad dtype or rank");
    Shape s;
    for (int d = 0; d < rank; ++d) s.push(r.get<int64_t>());
    const uint64_t bytes = r.get<uint64_t>();
    Tensor t = Tensor::empty(s, static_cast<DType>(dt), ctx);
    if (bytes != t.nbytes()) throw InputError("tensor blob entry '" + name + "' byte count does not match its shape");
    copy_bytes(t.raw(), t.device(), r.take(bytes), Device::cpu(), bytes);
    out.emplace_back(std::move(name), std::move(t));
  }
  return out;
}

NamedTensors parameter_values(const std::vector<Parameter*>& params) {
  NamedTensors out;
  for (Parameter* p : params) out.emplace_back(p->name, p->value);
  return out;
}

std::vector<uint8_t> save_parameters(const std::vector<Parameter*>& params) {
  return save_tensors(parameter_values(params));
}

void load_parameters(const std::vector<Parameter*>& params, const std::vector<uint8_t>& blob) {
  load_parameters(params, blob, cpu_context());
}

void load_parameters(const std::vector<Parameter*>& params, const std::vector<uint8_t>& blob, DeviceContext& ctx) {
  NamedTensors saved = load_tensors(blob, ctx);
  for (Parameter* p : params) {
    const Tensor* src = nullptr;
    for (auto& [n, t] : saved)
      if (n == p->name) src = &t;
    if (!src) throw InputError("checkpoint has no parameter '" + p->name + "'");
    if (src->shape() != p->value.shape() || src->dtype() != p->value.dtype())
      throw InputError("checkpoint parameter '" + p->name + "' is " + src->str() + " but the model has " + p->value.str());
    p->value.copy_from(*src);
  }
}

}  // namespace mlsys::nn
