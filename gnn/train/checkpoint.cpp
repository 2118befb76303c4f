#include "gnn/train/checkpoint.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"

namespace mlsys::gnn {

namespace {

const char* const kMoments[] = {"m", "v"};

// FNV-1a, 64 bit: a fixed, portable hash (the fingerprint must match across builds).
struct Fnv {
  uint64_t h = 1469598103934665603ull;
  void add(const void* p, size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  }
  template <class T>
  void add(const Array<T>& a) {
    const uint64_t n = a.size();
    add(&n, sizeof n);
    add(a.data(), a.size() * sizeof(T));
  }
  std::string hex() const { return fmt::format("{:016x}", h); }
};

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
  const std::string h = header.dump();
  const uint64_t len = h.size();
  // Written tensor by tensor, never whole in memory: the final save can run while the other
  // in-process workers still hold their training memory, and a file built in a string (parameters
  // and both moments, grown by doubling, plus a host copy of each tensor) raised the coauthor_cs
  // run's peak by up to 6 MiB when it did (docs/train-gnn.md, "Memory bound on coauthor_cs").
  TempFile file(path);
  file.write("MLSYSCK1\n");
  file.write(std::string_view(reinterpret_cast<const char*>(&len), 8));
  file.write(h);
  std::map<std::string, Tensor> state;
  for (auto& [name, t] : opt.state()) state[name] = t;
  auto put = [&](const Tensor& t) {
    if (t.device().is_cpu()) {
      file.write(std::string_view(reinterpret_cast<const char*>(t.data<float>()), t.nbytes()));
      return;
    }
    const std::vector<float> v = t.to_vector<float>();
    file.write(std::string_view(reinterpret_cast<const char*>(v.data()), v.size() * 4));
  };
  for (nn::Parameter* p : opt.params()) {
    put(p->value);
    for (const char* m : kMoments) {
      auto it = state.find(p->name + "." + m);
      put(it != state.end() ? it->second : Tensor::zeros(p->value.shape()));
    }
  }
  file.commit();
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

Json run_fingerprint(const Graph& g, const std::vector<int32_t>& owner, const ModelOptions& m, uint64_t seed) {
  Fnv gh;
  gh.add(&g.num_nodes, sizeof g.num_nodes);
  gh.add(&g.feature_dim, sizeof g.feature_dim);
  gh.add(&g.num_classes, sizeof g.num_classes);
  gh.add(g.indptr);
  gh.add(g.indices);
  gh.add(g.features);
  gh.add(g.feature_indptr);
  gh.add(g.feature_indices);
  gh.add(g.feature_values);
  gh.add(g.labels);
  gh.add(g.split);
  gh.add(g.multi_labels);
  Fnv ph;
  ph.add(owner.data(), owner.size() * sizeof(int32_t));
  Json f = Json::object();
  f["graph"] = fmt::format("{} ({} nodes, {} edges) {}", g.name, g.num_nodes, g.num_edges(), gh.hex());
  f["partition"] = fmt::format("{} parts {}", owner.empty() ? 0 : *std::max_element(owner.begin(), owner.end()) + 1, ph.hex());
  f["model"] = fmt::format("{} layers {} hidden {} heads {} layer_norm {} residual {} aggregate_first {} precompute_first {}", m.arch,
                           m.layers, m.hidden, m.heads, m.layer_norm, m.residual, m.aggregate_first, m.precompute_first);
  f["seed"] = std::to_string(seed);  // a string: exact for every 64-bit seed
  return f;
}

void check_fingerprint(const Json& want, const Json* have, const std::string& path) {
  if (!have)
    throw InputError(fmt::format("{}: the checkpoint has no run fingerprint (written by an older mlsys): it cannot be "
                                 "checked against this run; start a new run without --resume",
                                 path));
  std::string diff;
  for (const char* k : {"graph", "partition", "model", "seed"}) {
    const Json* h = have->find(k);
    const std::string hv = h ? h->as_string() : "(missing)";
    const std::string& wv = want.find(k)->as_string();
    if (hv != wv) diff += fmt::format("\n  {}: checkpoint {} vs this run {}", k, hv, wv);
  }
  if (!diff.empty())
    throw InputError(fmt::format("{}: the checkpoint comes from another run; resume only with the graph, partition, model "
                                 "and seed it was written with:{}",
                                 path, diff));
}

}  // namespace mlsys::gnn
