#include "gnn/train/checkpoint.hpp"

#include <cstring>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"

namespace mlsys::gnn {

void save_checkpoint(const std::string& path, const Json& header_in, const std::vector<Param*>& params) {
  Json header = header_in;
  Json names = Json::array();
  for (Param* p : params) {
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
  for (Param* p : params)
    for (const Tensor* t : {&p->value, &p->m, &p->v}) {
      std::vector<float> v = t->to_vector<float>();
      out.append(reinterpret_cast<const char*>(v.data()), v.size() * 4);
    }
  write_file_atomic(path, out);
}

Json load_checkpoint(const std::string& path, const std::vector<Param*>& params) {
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
  for (size_t i = 0; i < params.size(); ++i) {
    const Json& e = names->as_array()[i];
    Param* p = params[i];
    if (e.find("name")->as_string() != p->name || e.find("numel")->as_int() != p->value.numel())
      throw InputError(path + ": parameter '" + e.find("name")->as_string() + "' does not match the model ('" + p->name +
                       "'); resume with the same model config");
    for (const Tensor* t : {&p->value, &p->m, &p->v}) {
      size_t bytes = static_cast<size_t>(t->numel()) * 4;
      if (pos + bytes > raw.size()) throw InputError(path + ": truncated checkpoint data");
      Tensor host = Tensor::empty(t->shape());
      std::memcpy(host.data<float>(), raw.data() + pos, bytes);
      t->copy_from(host);
      pos += bytes;
    }
  }
  return header;
}

}  // namespace mlsys::gnn
