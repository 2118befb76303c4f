#include "sched/workload/traces/csv_rows.hpp"

namespace mlsys::workload {

CsvRows::CsvRows(ReadContext& ctx, char sep, bool header) : ctx_(ctx), in_(ctx.file(), sep), header_(header) {
  if (header) in_.read_header(/*lower=*/true);
}

bool CsvRows::next() {
  if (ctx_.done()) return false;
  while (in_.next()) {
    ctx_.row(in_.line());
    if (!in_.complete()) {
      ctx_.bad_row(in_.line(), static_cast<int>(in_.fields().size()) + 1, "", "", "unclosed quote");
      continue;
    }
    // A row cut short (a truncated file, a lost delimiter) would read a prefix of a value as the
    // value: fewer fields than the header names is a bad row.
    if (header_ && in_.fields().size() < in_.names().size()) {
      ctx_.bad_row(in_.line(), static_cast<int>(in_.fields().size()), "", "",
                   "expected " + std::to_string(in_.names().size()) + " fields as the header names, found " +
                       std::to_string(in_.fields().size()) + " (row cut short?)");
      continue;
    }
    return true;
  }
  return false;
}

}  // namespace mlsys::workload
