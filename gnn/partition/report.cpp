#include "gnn/partition/report.hpp"

#include <algorithm>

namespace mlsys::gnn {

Table partition_table(const std::vector<HaloPlan>& plans) {
  std::vector<std::string> cols = {"part", "inner_nodes", "halo_nodes", "edges", "cut_edges", "send_rows"};
  const int parts = static_cast<int>(plans.size());
  for (int q = 0; q < parts; ++q) cols.push_back("halo_from_" + std::to_string(q));
  Table t(cols);
  for (const auto& p : plans) {
    int64_t cut = 0;
    for (int32_t c : p.indices) cut += c >= p.num_owned();
    std::vector<Table::Cell> row;
    for (int64_t v : {int64_t{p.rank}, p.num_owned(), p.num_halo(), static_cast<int64_t>(p.indices.size()), cut, p.total_send_rows()})
      row.emplace_back(v);
    for (int q = 0; q < parts; ++q) row.emplace_back(p.halo_from(q));
    t.add_row(std::move(row));
  }
  return t;
}

Json partition_summary(const std::vector<HaloPlan>& plans, int64_t width) {
  int64_t halo = 0, cut = 0, mx = 0, mn = INT64_MAX;
  for (const auto& p : plans) {
    halo += p.num_halo();
    for (int32_t c : p.indices) cut += c >= p.num_owned();
    mx = std::max(mx, p.num_owned());
    mn = std::min(mn, p.num_owned());
  }
  Json j = Json::object();
  j["parts"] = static_cast<int64_t>(plans.size());
  j["halo_rows_per_layer"] = halo;
  j["fp32_bytes_per_layer"] = halo * width * 4;
  j["width"] = width;
  j["edge_cut"] = cut / 2;
  j["max_inner"] = mx;
  j["min_inner"] = mn;
  return j;
}

}  // namespace mlsys::gnn
