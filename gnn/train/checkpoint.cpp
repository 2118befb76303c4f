#include "gnn/train/checkpoint.hpp"

#include <cstring>
#include <map>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"

namespace mlsys::gnn {

namespace {

const char* const kMoments[] = {"m", "v"};

}  // namespace

void save_checkpoint(const std::string& path, const Json& header_in, nn::Optimizer& opt) {
  Json header = header_in;
  Json names = Json::array();
  for (nn::Parameter* p : opt.params()) {
    Json e = Json::object();
    e["name"] = p->name;
    e["numel"] = p->value.numel();
    names.push_back(e);
  }
  header["params"] = names;
  std::string h = header.dump();
  std::string out = "MLSYSCK1\n";
  uint64_t len = h.size();
  out.append(reinterpret_cast<const char*>(&len), 8);
  out += h;
  std::map<std::string, Tensor> state;
  for (auto& [name, t] : opt.state()) state[name] = t;
  auto put = [&](const Tensor& t) {
    std::vector<float> v = t.to_vector<float>();
    out.append(reinterpret_cast<const char*>(v.data()), v.size() * 4);
  };
  for (nn::Parameter* p : opt.params()) {
    put(p->value);
    for (const char* m : kMoments) {
      auto it = state.find(p->name + "." + m);
      put(it != state.end() ? it->second : Tensor::zeros(p->value.shape()));
    }
  }
  write_file_atomic(path, out);
}

Json load_checkpoint(const std::string& path, nn::Optimizer& opt) {
  const std::vector<nn::Parameter*>& params = opt.params();
  std::string raw = read_file(path);
  if (raw.size() < 17 || raw.compare(0, 9, "MLSYSCK1\n") != 0) throw InputError(path + ": not an mlsys train-gnn checkpoint");
  uint64_t len = 0;
  std::memcpy(&len, raw.data() + 9, 8);
  if (17 + len > raw.size()) throw InputError(path + ": truncated checkpoint header");
  Json header = Json::parse(std::string_view(raw).substr(17, len));
  const Json* names = header.find("params");
  if (!names || names->size() != params.size())
    throw InputError(path + ": checkpoint was written for a different model (parameter count differs)");
  size_t pos = 17 + len;
  auto take = [&](const Shape& shape) {
    Tensor host = Tensor::empty(shape);
    const size_t bytes = static_cast<size_t>(host.numel()) * 4;
    if (pos + bytes > raw.size()) throw InputError(path + ": truncated checkpoint data");
    std::memcpy(host.data<float>(), raw.data() + pos, bytes);
    pos += bytes;
    return host;
  };
  nn::NamedTensors state;
  state.emplace_back("__steps__", Tensor::from_vector(std::vector<int64_t>{header["epoch"].as_int()}));
  for (size_t i = 0; i < params.size(); ++i) {
    const Json& e = names->as_array()[i];
    nn::Parameter* p = params[i];
    if (e.find("name")->as_string() != p->name || e.find("numel")->as_int() != p->value.numel())
      throw InputError(path + ": parameter '" + e.find("name")->as_string() + "' does not match the model ('" + p->name +
                       "'); resume with the same model config");
    p->value.copy_from(take(p->value.shape()));
    for (const char* m : kMoments) state.emplace_back(p->name + "." + m, take(p->value.shape()));
  }
  opt.load_state(state);
  return header;
}

}  // namespace mlsys::gnn
