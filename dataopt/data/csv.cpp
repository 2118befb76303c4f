#include "dataopt/data/csv.hpp"

#include <algorithm>
#include <cmath>

#include "core/io/csv.hpp"
#include "core/util/error.hpp"
#include "core/util/number_parse.hpp"
#include "core/util/strings.hpp"

namespace mlsys::dataopt {

namespace {

// The numbers of a CSV matrix (core/util/number_parse.hpp): every cell a finite float32 (a header
// line fails this rule); in an image table, the last column a class label.
constexpr RealRule kCell{"cell", -kFloat32Max, kFloat32Max};
constexpr IntRule kCsvLabel{"label", 0, 1000000};

bool parse_float(std::string_view s, float& out) { return parse_number(s, kCell, out) == NumberProblem::kOk; }

}  // namespace

Tensor read_csv_matrix(const std::filesystem::path& path) {
  if (!std::filesystem::is_regular_file(path)) throw InputError("CSV file not found: " + path.string());
  CsvReader in(path);
  int64_t rows = 0, cols = 0;
  bool first = true;
  std::vector<float> data, row;  // row-major
  while (in.next()) {
    if (!in.complete()) throw InputError(in.where() + ": unclosed quote");
    const auto& cells = in.fields();
    row.resize(cells.size());
    bool numeric = true;
    for (size_t c = 0; c < cells.size() && numeric; ++c) numeric = parse_float(cells[c], row[c]);
    const bool header = first;
    first = false;
    if (!numeric) {
      if (header) continue;  // a header line of column names
      throw InputError(in.where() + ": non-numeric or non-finite cell");
    }
    if (rows == 0) cols = static_cast<int64_t>(row.size());
    if (static_cast<int64_t>(row.size()) != cols)
      throw InputError(in.where() + ": " + std::to_string(row.size()) + " columns, expected " + std::to_string(cols) +
                       " like the first row");
    data.insert(data.end(), row.begin(), row.end());
    ++rows;
  }
  if (rows == 0) throw InputError(path.string() + ": no numeric rows");
  return Tensor::from_vector(std::move(data), Shape{rows, cols});
}
ImageSet read_csv_images(const std::filesystem::path& path) {
  const Tensor m = read_csv_matrix(path);
  const int64_t rows = m.dim(0), cols = m.dim(1), pixels = cols - 1;
  const auto side = static_cast<int64_t>(std::lround(std::sqrt(static_cast<double>(std::max<int64_t>(pixels, 0)))));
  if (pixels < 1 || side * side != pixels)
    throw InputError(path.string() + ": " + std::to_string(cols) +
                     " columns; expected a square number of pixel columns followed by one label column");
  ImageSet s;
  s.n = rows;
  s.height = s.width = static_cast<int>(side);
  s.source = path.string();
  s.pixels.reserve(static_cast<size_t>(rows * pixels));
  std::vector<int32_t> labels;
  float peak = 0;
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = m.data<float>() + r * cols;
    for (int64_t c = 0; c < pixels; ++c) {
      if (row[c] < 0) throw InputError(path.string() + ": negative pixel in data row " + std::to_string(r + 1));
      peak = std::max(peak, row[c]);
      s.pixels.push_back(row[c]);
    }
    const int64_t l = check_field(static_cast<double>(row[pixels]), kCsvLabel,
                                  path.string() + ": data row " + std::to_string(r + 1));
    labels.push_back(static_cast<int32_t>(l));
  }
  if (peak > 0)
    for (float& v : s.pixels) v /= peak;
  s.set_labels(std::move(labels));
  return s;
}

}  // namespace mlsys::dataopt
