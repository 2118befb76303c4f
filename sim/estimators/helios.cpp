// Helios-style estimate (Hu et al., SC'21, QSSF): the mean duration of the same user's earlier
// jobs with the same name, else with a similar name (same name once trailing digits and
// separators are stripped), else of any user's jobs with a similar name, else of the user's jobs,
// else of all jobs, else a default. Online: only jobs that finished before the submit time count.
#include <algorithm>
#include <numeric>
#include <unordered_map>

#include "sim/estimators/estimator.hpp"

namespace mlsys::sim {
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

class Helios final : public Estimator {
 public:
  Estimates estimate(const std::vector<JobSpec>& jobs, const EstimatorOptions& o) override {
    return helios_estimates(jobs, o);
  }
};

const bool registered = estimator_registry().add(
    "helios", "History of the user's and similar job names' finished jobs, online (Helios QSSF, Hu et al., SC'21)",
    [] { return std::make_unique<Helios>(); });

}  // namespace

Estimates helios_estimates(const std::vector<JobSpec>& jobs, const EstimatorOptions& o) {
  const size_t n = jobs.size();
  std::vector<size_t> by_submit(n), by_end(n);
  std::iota(by_submit.begin(), by_submit.end(), 0);
  std::iota(by_end.begin(), by_end.end(), 0);
  std::stable_sort(by_submit.begin(), by_submit.end(), [&](size_t a, size_t b) { return jobs[a].submit_time < jobs[b].submit_time; });
  std::stable_sort(by_end.begin(), by_end.end(), [&](size_t a, size_t b) {
    return jobs[a].submit_time + jobs[a].duration < jobs[b].submit_time + jobs[b].duration;
  });
  std::unordered_map<std::string, Mean> user_name, user_stem, any_stem, user;
  Mean all;
  Estimates e;
  e.value.assign(n, o.default_s);
  size_t k = 0;
  for (size_t i : by_submit) {
    const auto& j = jobs[i];
    while (k < n && jobs[by_end[k]].submit_time + jobs[by_end[k]].duration <= j.submit_time) {
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

}  // namespace mlsys::sim
