#include "core/runtime/table.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "core/io/csv.hpp"
#include "core/util/fs.hpp"
#include "core/util/json.hpp"

namespace mlsys {

void Table::add_row(std::vector<Cell> row) {
  if (row.size() != columns_.size())
    throw std::logic_error(fmt::format("table row has {} cells, expected {}", row.size(), columns_.size()));
  rows_.push_back(std::move(row));
}

std::string csv_field(const std::string& s) {
  std::string out;
  append_csv_field(out, s);  // the one quoting rule (core/io/csv.hpp)
  return out;
}

std::string Table::cell_text(const Cell& c, bool exact) const {
  if (auto* s = std::get_if<std::string>(&c)) return exact ? csv_field(*s) : *s;
  if (auto* i = std::get_if<int64_t>(&c)) return std::to_string(*i);
  double d = std::get<double>(c);
  return exact ? format_number(d) : fmt::format("{:.{}f}", d, precision_);
}

std::string Table::to_csv() const {
  std::string out;
  for (size_t i = 0; i < columns_.size(); ++i) out += (i ? "," : "") + csv_field(columns_[i]);
  out += "\n";
  for (const auto& r : rows_) {
    for (size_t i = 0; i < r.size(); ++i) out += (i ? "," : "") + cell_text(r[i], true);
    out += "\n";
  }
  return out;
}

std::string Table::to_text() const {
  std::vector<size_t> w(columns_.size());
  for (size_t i = 0; i < columns_.size(); ++i) w[i] = columns_[i].size();
  for (const auto& r : rows_)
    for (size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], cell_text(r[i], false).size());
  std::string out;
  for (size_t i = 0; i < columns_.size(); ++i) out += fmt::format("{}{:<{}}", i ? "  " : "", columns_[i], w[i]);
  out += "\n";
  for (const auto& r : rows_) {
    for (size_t i = 0; i < r.size(); ++i) {
      bool num = !std::holds_alternative<std::string>(r[i]);
      std::string t = cell_text(r[i], false);
      out += i ? "  " : "";
      out += num ? fmt::format("{:>{}}", t, w[i]) : fmt::format("{:<{}}", t, w[i]);
    }
    out += "\n";
  }
  return out;
}

void Table::write_csv(const std::string& path) const { write_file_atomic(path, to_csv()); }

}  // namespace mlsys
