#pragma once
// A small column table for results: CSV output (written atomically) and aligned console text.
#include <string>
#include <variant>
#include <vector>

namespace mlsys {

class Table {
 public:
  using Cell = std::variant<std::string, double, int64_t>;
  explicit Table(std::vector<std::string> columns) : columns_(std::move(columns)) {}
  // Appends a row; must have one cell per column.
  void add_row(std::vector<Cell> row);
  const std::vector<std::string>& columns() const { return columns_; }
  size_t rows() const { return rows_.size(); }
  const std::vector<Cell>& row(size_t i) const { return rows_[i]; }
  // Decimal places for double cells in to_text (CSV always uses the shortest exact form).
  void set_precision(int digits) { precision_ = digits; }
  std::string to_csv() const;
  std::string to_text() const;
  void write_csv(const std::string& path) const;

 private:
  std::string cell_text(const Cell& c, bool exact) const;
  std::vector<std::string> columns_;
  std::vector<std::vector<Cell>> rows_;
  int precision_ = 3;
};

// Quotes a CSV field when it needs it.
std::string csv_field(const std::string& s);

}  // namespace mlsys
