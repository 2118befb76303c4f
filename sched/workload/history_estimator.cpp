#include "sched/workload/history_estimator.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>
#include <unordered_map>

#include "sched/workload/online_order.hpp"

namespace mlsys::workload {
namespace {

std::string stem(const std::string& name) {
  size_t end = name.size();
  while (end > 0 && (std::isdigit(static_cast<unsigned char>(name[end - 1])) || name[end - 1] == '-' ||
                     name[end - 1] == '_' || name[end - 1] == '.'))
    --end;
  return name.substr(0, end);
}

struct Mean {
  double sum = 0;
  int64_t n = 0;
  void add(double x) {
    sum += x;
    ++n;
  }
};

}  // namespace

DurationEstimates helios_estimates(const std::vector<JobSpec>& jobs, double default_s) {
  const size_t n = jobs.size();
  auto end_of = [&](size_t i) { return finish_time(jobs[i]); };
  const auto [by_submit, by_end] = online_order(jobs);
  std::unordered_map<std::string, Mean> user_name, user_stem, any_stem, user;
  Mean all;
  DurationEstimates e;
  e.value.assign(n, default_s);
  size_t k = 0;
  for (size_t i : by_submit) {
    const auto& j = jobs[i];
    while (k < by_end.size() && end_of(by_end[k]) <= j.submit_time) {
      const auto& d = jobs[by_end[k]];
      std::string st = stem(d.name);
      user_name[d.user + '\x1f' + d.name].add(d.duration);
      user_stem[d.user + '\x1f' + st].add(d.duration);
      any_stem[st].add(d.duration);
      user[d.user].add(d.duration);
      all.add(d.duration);
      ++k;
    }
    std::string st = stem(j.name);
    const Mean* m = nullptr;
    const char* src = "default";
    auto look = [&](std::unordered_map<std::string, Mean>& map, const std::string& key, const char* name) {
      if (m) return;
      auto it = map.find(key);
      if (it != map.end() && it->second.n > 0) {
        m = &it->second;
        src = name;
      }
    };
    look(user_name, j.user + '\x1f' + j.name, "user+name");
    look(user_stem, j.user + '\x1f' + st, "user+similar name");
    if (!st.empty()) look(any_stem, st, "similar name");
    look(user, j.user, "user");
    if (!m && all.n > 0) {
      m = &all;
      src = "all jobs";
    }
    if (m) e.value[i] = m->sum / static_cast<double>(m->n);
    ++e.sources[src];
  }
  return e;
}

}  // namespace mlsys::workload
