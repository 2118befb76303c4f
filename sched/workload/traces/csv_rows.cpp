#include "sched/workload/traces/csv_rows.hpp"

namespace mlsys::workload {

CsvRows::CsvRows(ReadContext& ctx, char sep, bool header) : ctx_(ctx), in_(ctx.file(), sep) {
  if (header) in_.read_header(/*lower=*/true);
}

bool CsvRows::next() {
  if (ctx_.done()) return false;
  while (in_.next()) {
    ctx_.row();
    if (!in_.complete()) {
      ctx_.bad_row(in_.line(), static_cast<int>(in_.fields().size()) + 1, "", "", "unclosed quote");
      continue;
    }
    return true;
  }
  return false;
}

}  // namespace mlsys::workload
