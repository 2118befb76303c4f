#include "sim/traces/csv_rows.hpp"

#include "core/util/error.hpp"
#include "core/util/strings.hpp"
#include "sim/traces/fields.hpp"

namespace mlsys::sim {

CsvRows::CsvRows(ReadContext& ctx, char sep, bool header) : ctx_(ctx), in_(ctx.file()), sep_(sep) {
  if (!header) return;
  std::string_view line;
  while (in_.next(line)) {
    if (trim(line).empty()) continue;
    if (!split(line)) throw InputError(ctx_.file() + ":" + std::to_string(in_.line_number()) + ": header has an unclosed quote");
    header_line_ = in_.line_number();
    for (auto f : fields_) names_.push_back(to_lower(trim(f)));
    // A UTF-8 byte-order mark would hide the first column name.
    if (!names_.empty() && starts_with(names_[0], "\xEF\xBB\xBF")) names_[0] = names_[0].substr(3);
    return;
  }
  throw InputError(ctx_.file() + ": empty file (expected a header line)");
}

bool CsvRows::split(std::string_view line) {
  if (sep_ == ',') return split_csv(line, fields_, scratch_);
  split_plain(line, sep_, fields_);
  return true;
}

int CsvRows::column(std::string_view name) const {
  std::string l = to_lower(name);
  for (size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == l) return static_cast<int>(i);
  return -1;
}

int CsvRows::require(std::string_view name) const {
  int c = column(name);
  if (c < 0)
    throw InputError(ctx_.file() + ":" + std::to_string(header_line_) + ": missing column '" + std::string(name) +
                     "' (header has: " + join(names_, ",") + "); is trace.format right?");
  return c;
}

bool CsvRows::next() {
  if (ctx_.done()) return false;
  std::string_view line;
  while (in_.next(line)) {
    if (trim(line).empty()) continue;
    ctx_.row();
    if (!split(line)) {
      ctx_.bad_row(in_.line_number(), static_cast<int>(fields_.size()) + 1, "", "", "unclosed quote");
      continue;
    }
    return true;
  }
  return false;
}

}  // namespace mlsys::sim
