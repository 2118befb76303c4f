#include "sched/schedmate/eval/duration_eval.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "core/util/error.hpp"
#include "core/util/strings.hpp"

namespace mlsys::schedmate {

const std::vector<std::string>& duration_estimators() {
  static const std::vector<std::string> names = {"schedmate", "helios", "gbdt", "previous"};
  return names;
}

std::vector<double> predictions(const OnlineResult& r, const std::string& e) {
  if (e == "schedmate") {
    std::vector<double> v;
    v.reserve(r.schedmate.size());
    for (const auto& p : r.schedmate) v.push_back(p.duration_s);
    return v;
  }
  if (e == "helios") return r.helios;
  if (e == "gbdt") return r.gbdt;
  if (e == "previous") return r.previous;
  return {};
}

std::function<std::string(const AdvisedJob&)> group_of(const std::string& group_by) {
  if (group_by == "id_prefix")
    return [](const AdvisedJob& j) {
      const size_t slash = j.id.find('/');
      return slash == std::string::npos ? std::string("all") : j.id.substr(0, slash);
    };
  return [](const AdvisedJob& j) { return j.vc.empty() ? std::string("all") : j.vc; };
}

std::string job_type(const AdvisedJob& j) {
  return std::string(trim(std::string_view(j.name).substr(0, j.name.find('('))));
}

namespace {

struct Rows {
  std::vector<std::string> estimators;
  std::vector<std::vector<double>> values;  // per estimator, per job
};

Rows present(const OnlineResult& r) {
  Rows out;
  for (const auto& e : duration_estimators()) {
    auto v = predictions(r, e);
    if (v.empty() && !r.schedmate.empty()) continue;
    out.estimators.push_back(e);
    out.values.push_back(std::move(v));
  }
  return out;
}

std::vector<std::string> columns(const Rows& rows, const char* first) {
  std::vector<std::string> cols = {first, "jobs"};
  for (const auto& e : rows.estimators)
    for (const char* m : {"_within_10pct", "_within_50pct", "_median_ape"}) cols.push_back(e + m);
  return cols;
}

void add(Table& t, const std::string& label, const std::vector<size_t>& idx, const std::vector<AdvisedJob>& jobs,
         const Rows& rows) {
  std::vector<double> truth;
  std::vector<size_t> kept;
  for (size_t i : idx)
    if (jobs[i].duration > 0) kept.push_back(i), truth.push_back(jobs[i].duration);
  std::vector<Table::Cell> row = {label, static_cast<int64_t>(kept.size())};
  for (const auto& v : rows.values) {
    std::vector<double> p;
    for (size_t i : kept) p.push_back(v[i]);
    row.push_back(within(p, truth, 0.1));
    row.push_back(within(p, truth, 0.5));
    row.push_back(kept.empty() ? 0.0 : median_ape(p, truth));
  }
  t.add_row(std::move(row));
}

}  // namespace

std::vector<bool> cold_starts(const std::vector<AdvisedJob>& jobs) {
  auto key = [](const AdvisedJob& j) { return j.vc + '\x1f' + j.user + '\x1f' + j.name; };
  std::map<std::string, double> first_finish;  // the earliest finish of any run of the job
  for (const auto& j : jobs) {
    if (!(j.duration > 0)) continue;
    auto [it, fresh] = first_finish.emplace(key(j), j.submit_time + j.duration);
    if (!fresh) it->second = std::min(it->second, j.submit_time + j.duration);
  }
  std::vector<bool> cold(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    // A job's own finish is after its submit, so only another run can make it warm.
    auto it = first_finish.find(key(jobs[i]));
    cold[i] = it == first_finish.end() || !(it->second <= jobs[i].submit_time);
  }
  return cold;
}

Table accuracy_table(const std::vector<AdvisedJob>& jobs, const OnlineResult& r,
                     const std::function<std::string(const AdvisedJob&)>& group,
                     const std::vector<std::string>& reported) {
  const Rows rows = present(r);
  Table t(columns(rows, "group"));
  const std::vector<bool> cold = cold_starts(jobs);
  // Each set of jobs, then its cold starts and its warm jobs apart.
  auto add_split = [&](const std::string& label, const std::vector<size_t>& idx) {
    add(t, label, idx, jobs, rows);
    std::vector<size_t> c, w;
    for (size_t i : idx) (cold[i] ? c : w).push_back(i);
    add(t, label + " cold", c, jobs, rows);
    add(t, label + " warm", w, jobs, rows);
  };
  std::map<std::string, std::vector<size_t>> groups;
  std::vector<size_t> all;
  const std::set<std::string> scored(reported.begin(), reported.end());
  for (size_t i = 0; i < jobs.size(); ++i) {
    const std::string g = group(jobs[i]);
    if (scored.empty() || scored.count(g)) groups[g].push_back(i), all.push_back(i);
  }
  for (const auto& [g, idx] : groups) add_split(g, idx);
  add_split("ALL", all);
  return t;
}

std::vector<size_t> reported_jobs(const std::vector<AdvisedJob>& jobs,
                                  const std::function<std::string(const AdvisedJob&)>& group,
                                  const std::vector<std::string>& reported, const std::string& key) {
  std::set<std::string> unmatched(reported.begin(), reported.end());
  const std::set<std::string> scored = unmatched;
  std::vector<size_t> idx;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const std::string g = group(jobs[i]);
    if (scored.empty() || scored.count(g)) idx.push_back(i), unmatched.erase(g);
  }
  if (!unmatched.empty())
    throw ConfigError(key + ": no job is in the group \"" + *unmatched.begin() +
                      "\"; name groups the jobs have (the duration_accuracy.csv rows), or [] to report every group");
  return idx;
}

OnlineResult select(const OnlineResult& r, const std::vector<size_t>& idx) {
  OnlineResult out;
  auto pick = [&](const auto& from, auto& to) {
    if (from.empty()) return;
    for (size_t i : idx) to.push_back(from[i]);
  };
  pick(r.schedmate, out.schedmate);
  pick(r.helios, out.helios);
  pick(r.gbdt, out.gbdt);
  pick(r.previous, out.previous);
  return out;
}

Table unseen_type_table(const std::vector<AdvisedJob>& jobs, const AdvisorOptions& opt, const OnlineOptions& online) {
  std::map<std::string, std::vector<size_t>> types;
  for (size_t i = 0; i < jobs.size(); ++i) types[job_type(jobs[i])].push_back(i);
  OnlineResult merged;
  merged.schedmate.resize(jobs.size());
  merged.helios.resize(jobs.size());
  if (online.gbdt) merged.gbdt.resize(jobs.size());
  if (online.previous) merged.previous.resize(jobs.size());
  for (const auto& [type, idx] : types) {
    OnlineOptions o = online;
    const std::string t = type;
    o.held_out = [t](const AdvisedJob& j) { return job_type(j) == t; };
    OnlineResult r = predict_online_by_vc(jobs, opt, o);
    for (size_t i : idx) {
      merged.schedmate[i] = r.schedmate[i];
      merged.helios[i] = r.helios[i];
      if (online.gbdt) merged.gbdt[i] = r.gbdt[i];
      if (online.previous) merged.previous[i] = r.previous[i];
    }
  }
  const Rows rows = present(merged);
  Table out(columns(rows, "job_type"));
  std::vector<size_t> all;
  for (const auto& [type, idx] : types) {
    add(out, type, idx, jobs, rows);
    all.insert(all.end(), idx.begin(), idx.end());
  }
  add(out, "ALL", all, jobs, rows);
  return out;
}

}  // namespace mlsys::schedmate
