#include "dataopt/prior/prior.hpp"

#include <fstream>
#include <sstream>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "dataopt/data/csv.hpp"
#include "dataopt/data/npy.hpp"
#include "dataopt/math/tensor_ops.hpp"

namespace mlsys::dataopt {

namespace {
const std::string kHeader = "mlsys-prior " + std::to_string(kPriorFormat);
}  // namespace

Tensor Prior::embed(DeviceContext& ctx, const Tensor& images, const std::vector<int64_t>& pool_rows, int64_t chunk) {
  if (!external()) {
    if (&net.ctx() != &ctx) throw Error("prior '" + name + "' was built on another context");
    return net.features(images, chunk);
  }
  return select_rows(ctx, pool_embeddings, pool_rows);
}

void save_prior(const std::filesystem::path& path, Prior& prior) {
  if (prior.external()) throw Error("prior '" + prior.name + "' uses external embeddings; there is no network to save");
  std::ostringstream out(std::ios::binary);
  out << kHeader << "\nname " << prior.name << "\nkind " << prior.kind << "\nabout " << prior.about << "\n";
  prior.net.save(out);
  write_file_atomic(path, out.str());
}

Prior load_prior(DeviceContext& ctx, const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("prior file not found: " + path.string());
  std::string line;
  Prior p;
  if (!std::getline(in, line) || line.rfind("mlsys-prior ", 0) != 0)
    throw InputError(path.string() + ": not an mlsys prior file (first line must be '" + kHeader + "')");
  if (line != kHeader)
    throw InputError(path.string() + ": prior file format '" + line + "', this build reads '" + kHeader +
                     "' (retrain it: mlsys coopt priors)");
  auto field = [&](const std::string& key) {
    if (!std::getline(in, line) || line.rfind(key + " ", 0) != 0)
      throw InputError(path.string() + ": expected a '" + key + "' line in the prior header");
    return line.substr(key.size() + 1);
  };
  p.name = field("name");
  p.kind = field("kind");
  p.about = field("about");
  p.net = Network::load(ctx, in, path.string());
  return p;
}

Tensor load_embeddings(const std::filesystem::path& path, int64_t expected_rows) {
  Tensor m;
  const std::string ext = path.extension() == ".gz" ? path.stem().extension().string() : path.extension().string();
  if (ext == ".npy") {
    NpyArray a = read_npy(path);
    if (a.shape.size() != 2) throw InputError(path.string() + ": embeddings must be a 2-D array (rows, dim)");
    m = host_matrix(a.floats(), a.shape[0], a.shape[1]);
  } else if (ext == ".csv") {
    m = read_csv_matrix(path);
  } else {
    throw InputError(path.string() + ": embeddings must be a .npy or .csv file");
  }
  if (m.rows() != expected_rows)
    throw InputError(path.string() + ": holds " + std::to_string(m.rows()) + " embedding rows but the pool has " +
                     std::to_string(expected_rows) + " images (one row per pool image, in pool order)");
  return m;
}

}  // namespace mlsys::dataopt
