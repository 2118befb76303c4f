#include "core/quant/codec.hpp"

#include <map>
#include <mutex>
#include <set>

#include "core/quant/codec_override.hpp"
#include "core/tensor/device_backend.hpp"
#include "core/util/error.hpp"
#include "core/util/strings.hpp"

namespace mlsys::quant {

CodecRegistry& codec_registry() {
  static CodecRegistry r("quantization codec");
  return r;
}

MetaPrecision parse_meta_precision(const std::string& s) {
  if (s == "fp16") return MetaPrecision::fp16;
  if (s == "bf16") return MetaPrecision::bf16;
  if (s == "fp32") return MetaPrecision::fp32;
  throw ConfigError("unknown quantization metadata precision '" + s + "'; valid: fp16, bf16, fp32");
}

const char* to_string(MetaPrecision m) {
  switch (m) {
    case MetaPrecision::fp16:
      return "fp16";
    case MetaPrecision::bf16:
      return "bf16";
    case MetaPrecision::fp32:
      return "fp32";
  }
  return "?";
}

size_t meta_bytes(MetaPrecision m) { return m == MetaPrecision::fp32 ? 4 : 2; }

Impl parse_impl(const std::string& s) {
  if (s == "reference") return Impl::reference;
  if (s == "fast") return Impl::fast;
  if (s == "cuda") return Impl::cuda;
  throw ConfigError("unknown codec implementation '" + s + "'; valid: reference, fast, cuda");
}

const char* to_string(Impl i) {
  switch (i) {
    case Impl::reference:
      return "reference";
    case Impl::fast:
      return "fast";
    case Impl::cuda:
      return "cuda";
  }
  return "?";
}

Impl impl_for(const Device& d) { return d.is_cuda() ? Impl::cuda : Impl::fast; }

namespace {
struct Overrides {
  std::mutex mu;
  std::map<std::string, CodecOverride::Factory> by_name;
};
Overrides& overrides() {
  static Overrides o;
  return o;
}
}  // namespace

CodecOverride::CodecOverride(std::string name, Factory factory) : name_(std::move(name)) {
  codec_registry().entry(name_);  // ConfigError for an unknown name
  auto& o = overrides();
  std::lock_guard lock(o.mu);
  if (!o.by_name.emplace(name_, std::move(factory)).second) throw std::logic_error("codec '" + name_ + "' overridden twice");
}

CodecOverride::~CodecOverride() {
  auto& o = overrides();
  std::lock_guard lock(o.mu);
  o.by_name.erase(name_);
}

std::unique_ptr<Codec> make_codec(const std::string& name, const CodecParams& params) {
  std::unique_ptr<Codec> c;
  {
    auto& o = overrides();
    std::lock_guard lock(o.mu);
    auto it = o.by_name.find(name);
    if (it != o.by_name.end()) c = it->second(codec_registry().entry(name).factory, params);
  }
  if (!c) c = codec_registry().create(name, params);
  if (params.impl == Impl::cuda) device_backend(Device::Kind::cuda);  // ConfigError with the reason when unavailable
  if (params.impl == Impl::cuda && !c->device()) throw ConfigError("codec '" + name + "' has no CUDA kernels");
  return c;
}

std::vector<CodecInfo> codec_table() {
  std::vector<CodecInfo> out;
  for (const auto* e : codec_registry().entries()) out.push_back({e->name, e->description, e->factory({})->traits()});
  return out;
}

std::vector<CodecInfo> unbiased_codecs(int bits) {
  std::vector<CodecInfo> out;
  for (auto& c : codec_table())
    if (c.traits.bits == bits && (c.traits.stochastic || c.traits.lossless)) out.push_back(c);
  return out;
}

std::vector<int> unbiased_widths() {
  std::set<int> widths;
  for (auto& c : codec_table())
    if (c.traits.stochastic || c.traits.lossless) widths.insert(c.traits.bits);
  return {widths.begin(), widths.end()};
}

std::vector<config::Choice> unbiased_width_choices() {
  std::vector<config::Choice> out;
  for (int b : unbiased_widths()) {
    std::vector<std::string> what;
    for (auto& c : unbiased_codecs(b)) what.push_back(c.name + ": " + c.description);
    out.push_back({std::to_string(b), join(what, "; ")});
  }
  return out;
}

std::unique_ptr<Codec> unbiased_codec(int bits, const CodecParams& params) {
  auto found = unbiased_codecs(bits);
  if (found.empty()) {
    std::vector<std::string> w;
    for (int b : unbiased_widths()) w.push_back(std::to_string(b));
    throw ConfigError("no unbiased codec (stochastic rounding or lossless) has " + std::to_string(bits) +
                      " bits; the codec table offers " + join(w, ", "));
  }
  if (found.size() > 1) {
    std::vector<std::string> names;
    for (auto& c : found) names.push_back(c.name);
    throw ConfigError("several unbiased codecs have " + std::to_string(bits) + " bits (" + join(names, ", ") +
                      "); make one by name");
  }
  return make_codec(found.front().name, params);
}

}  // namespace mlsys::quant
