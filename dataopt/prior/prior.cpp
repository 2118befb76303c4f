#include "dataopt/prior/prior.hpp"

#include <fstream>
#include <sstream>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "dataopt/data/csv.hpp"
#include "dataopt/data/npy.hpp"

namespace mlsys::dataopt {

Matrix Prior::embed(const Matrix& images, const std::vector<int64_t>& pool_rows, int64_t chunk) {
  if (!external()) return net.features(images, chunk);
  return pool_embeddings.select_rows(pool_rows);
}

void save_prior(const std::filesystem::path& path, Prior& prior) {
  if (prior.external()) throw Error("prior '" + prior.name + "' uses external embeddings; there is no network to save");
  std::ostringstream out(std::ios::binary);
  out << "mlsys-prior 1\nname " << prior.name << "\nkind " << prior.kind << "\nabout " << prior.about << "\n";
  prior.net.save(out);
  write_file_atomic(path, out.str());
}

Prior load_prior(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("prior file not found: " + path.string());
  std::string line;
  Prior p;
  if (!std::getline(in, line) || line != "mlsys-prior 1")
    throw InputError(path.string() + ": not an mlsys prior file (first line must be 'mlsys-prior 1')");
  auto field = [&](const std::string& key) {
    if (!std::getline(in, line) || line.rfind(key + " ", 0) != 0)
      throw InputError(path.string() + ": expected a '" + key + "' line in the prior header");
    return line.substr(key.size() + 1);
  };
  p.name = field("name");
  p.kind = field("kind");
  p.about = field("about");
  p.net = Net::load(in, path.string());
  return p;
}

Matrix load_embeddings(const std::filesystem::path& path, int64_t expected_rows) {
  Matrix m;
  const std::string ext = path.extension() == ".gz" ? path.stem().extension().string() : path.extension().string();
  if (ext == ".npy") {
    NpyArray a = read_npy(path);
    if (a.shape.size() != 2) throw InputError(path.string() + ": embeddings must be a 2-D array (rows, dim)");
    m = Matrix(a.shape[0], a.shape[1]);
    m.v = std::move(a.data);
  } else if (ext == ".csv") {
    CsvMatrix c = read_csv_matrix(path);
    m = Matrix(c.rows, c.cols);
    m.v = std::move(c.data);
  } else {
    throw InputError(path.string() + ": embeddings must be a .npy or .csv file");
  }
  if (m.rows != expected_rows)
    throw InputError(path.string() + ": holds " + std::to_string(m.rows) + " embedding rows but the pool has " +
                     std::to_string(expected_rows) + " images (one row per pool image, in pool order)");
  return m;
}

}  // namespace mlsys::dataopt
