#include "sched/schedmate/advisor/advisor.hpp"

#include <algorithm>
#include <numeric>
#include <queue>

#include "sched/workload/gbdt_estimator.hpp"
#include "sched/workload/history_estimator.hpp"

namespace mlsys::schedmate {

namespace {
double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}
double stddev(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  double m = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size() - 1));
}
bool same_num(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }
}  // namespace

Json Prediction::to_json() const {
  Json j = Json::object();
  j["job_id"] = job_id;
  j["predicted_duration_s"] = duration_s;
  j["uncertainty_s"] = uncertainty_s;
  j["steps_per_s"] = std::isnan(steps_per_s) ? Json(nullptr) : Json(steps_per_s);
  j["source"] = source;
  j["similarity"] = similarity;
  Json n = Json::array();
  for (const auto& id : neighbors) n.push_back(id);
  j["neighbors"] = n;
  if (!evidence.empty()) {
    Json e = Json::array();
    for (const auto& line : evidence) e.push_back(line);
    j["evidence"] = e;
  }
  j["facts"] = facts.to_json();
  return j;
}

Advisor::Advisor(AdvisorOptions opt) : opt_(opt), index_(opt.ngram), effects_(opt.transfer) {}

double Advisor::key_similarity(const JobFacts& a, const JobFacts& b) const {
  // Weights reflect how much each fact moves per-step speed.
  double s = 0, total = 1.0;
  s += 0.30 * (a.model == b.model);
  s += 0.20 * same_num(a.batch_size, b.batch_size);
  s += 0.20 * (a.num_gpus == b.num_gpus);
  s += 0.10 * (a.dataset == b.dataset);
  s += 0.08 * (a.task == b.task);
  s += 0.04 * (a.framework == b.framework);
  s += 0.04 * (a.precision == b.precision);
  s += 0.04 * (a.tp == b.tp && a.pp == b.pp);
  // Accelerator kind and platform count only where a job states them (unknown on both sides says
  // nothing), so jobs of traces without them compare as before.
  if (!a.accelerator.empty() || !b.accelerator.empty()) {
    s += 0.15 * (a.accelerator == b.accelerator);
    total += 0.15;
  }
  if (!a.system.empty() || !b.system.empty()) {
    s += 0.15 * (a.system == b.system);
    total += 0.15;
  }
  return s / total;
}

std::string Advisor::workload_of(const JobFacts& f) {
  return f.model.empty() ? std::string() : f.model + "|" + f.dataset + "|" + f.task;
}

PlatformFacts Advisor::platform_of(const AdvisedJob& job) {
  // A named platform (an MLPerf system) fixes hardware and software; otherwise the accelerators.
  const JobFacts& f = job.facts;
  return {!f.system.empty() ? f.system : f.accelerator + "x" + std::to_string(f.num_gpus), f.accelerator, job.user,
          f.software, f.num_gpus};
}

bool Advisor::transfer(const AdvisedJob& job, Prediction& pr) const {
  const std::string w = workload_of(job.facts);
  if (w.empty()) return false;
  SystemEffects::Estimate e = effects_.predict(w, platform_of(job));
  if (!e.ok) return false;
  pr.duration_s = std::exp(e.log_duration);
  pr.uncertainty_s = pr.duration_s * e.sigma;
  pr.source = "transfer";
  pr.similarity = 0;
  pr.evidence = std::move(e.evidence);
  return true;
}

void Advisor::add_history(const AdvisedJob& job) {
  if (!(job.duration > 0)) return;
  const std::string text = retrieval_text(job.text);
  const std::string pkey = job.facts.key() + "\n" + text;
  auto it = protos_.find(pkey);
  if (it == protos_.end()) {
    Prototype p;
    p.facts = job.facts;
    p.grams = index_.counts(text);
    index_.add(p.grams);
    it = protos_.emplace(pkey, std::move(p)).first;
  }
  Prototype& p = it->second;
  const double ld = std::log(job.duration);
  p.log_duration.push_back(ld);
  if (job.facts.steps > 0) p.log_rate.push_back(std::log(job.facts.steps / job.duration));
  if (p.ids.size() < 3) p.ids.push_back(job.id);
  user_log_durations_[job.user].push_back(ld);
  all_log_durations_.push_back(ld);
  const std::string workload = workload_of(job.facts);
  if (!(job.facts.steps > 0) && !workload.empty()) effects_.add(workload, platform_of(job), ld);
  ++history_count_;
}

Prediction Advisor::predict(const AdvisedJob& job) const {
  Prediction pr;
  pr.job_id = job.id;
  pr.facts = job.facts;
  const std::string text = retrieval_text(job.text);
  const auto grams = index_.counts(text);
  struct Cand {
    const Prototype* p;
    double sim, key;
  };
  std::vector<Cand> cands;
  for (const auto& [k, p] : protos_) {
    double ks = key_similarity(job.facts, p.facts);
    double sim = opt_.key_weight * ks + (1 - opt_.key_weight) * index_.cosine(grams, p.grams);
    if (sim >= opt_.min_similarity) cands.push_back({&p, sim, ks});
  }
  std::sort(cands.begin(), cands.end(), [](const Cand& a, const Cand& b) { return a.sim > b.sim; });
  if (cands.size() > static_cast<size_t>(opt_.k)) cands.resize(static_cast<size_t>(opt_.k));
  // An exact structural match outweighs any number of approximate ones.
  bool exact = !cands.empty() && cands.front().key >= 0.999;
  if (exact) cands.erase(std::remove_if(cands.begin(), cands.end(), [](const Cand& c) { return c.key < 0.999; }), cands.end());
  const bool steps_known = job.facts.steps > 0;
  // No finished run of this configuration: the same workload elsewhere, carried over.
  if (!exact && !steps_known && transfer(job, pr)) return pr;
  if (!cands.empty()) {
    double wsum = 0, mean = 0;
    std::vector<std::pair<double, double>> est;  // (log value, weight)
    double within_var = 0;
    for (const auto& c : cands) {
      const Prototype& p = *c.p;
      double lv;
      if (steps_known && !p.log_rate.empty()) {
        lv = median(p.log_rate);
        // Another batch size or GPU count: carry over samples/s, scaled to this job's shape.
        if (job.facts.batch_size > 0 && p.facts.batch_size > 0) lv += std::log(p.facts.batch_size / job.facts.batch_size);
        if (job.facts.num_gpus > 0 && p.facts.num_gpus > 0) lv += std::log(static_cast<double>(job.facts.num_gpus) / p.facts.num_gpus);
        within_var += stddev(p.log_rate) * stddev(p.log_rate);
      } else if (!steps_known) {
        lv = median(p.log_duration);
        within_var += stddev(p.log_duration) * stddev(p.log_duration);
      } else {
        continue;
      }
      double w = c.sim * c.sim * std::log1p(static_cast<double>(p.log_duration.size()));
      est.push_back({lv, w});
      wsum += w;
      mean += w * lv;
    }
    if (wsum > 0) {
      mean /= wsum;
      double between = 0;
      for (auto& [v, w] : est) between += w * (v - mean) * (v - mean);
      between /= wsum;
      // A 5% floor: even an identical configuration varies from run to run.
      double sigma = std::max(0.05, std::sqrt(between + within_var / static_cast<double>(est.size())) + (1.0 - cands.front().sim) * 0.5);
      if (steps_known) {
        pr.steps_per_s = std::exp(mean);
        pr.duration_s = job.facts.steps / pr.steps_per_s;
      } else {
        pr.duration_s = std::exp(mean);
      }
      pr.uncertainty_s = pr.duration_s * sigma;
      pr.source = exact ? "knn_exact" : "knn";
      pr.similarity = cands.front().sim;
      for (const auto& c : cands)
        for (const auto& id : c.p->ids)
          if (pr.neighbors.size() < 5) pr.neighbors.push_back(id);
      return pr;
    }
  }
  auto from_logs = [&](const std::vector<double>& v, const char* src) {
    double m = median(v);
    pr.duration_s = std::exp(m);
    pr.uncertainty_s = pr.duration_s * std::max(0.5, stddev(v));
    pr.source = src;
  };
  auto u = user_log_durations_.find(job.user);
  if (u != user_log_durations_.end() && static_cast<int>(u->second.size()) >= opt_.min_user_jobs) from_logs(u->second, "user");
  else if (!all_log_durations_.empty()) from_logs(all_log_durations_, "global");
  else {
    pr.duration_s = opt_.prior_duration_s;
    pr.uncertainty_s = opt_.prior_duration_s * 1.5;
    pr.source = "prior";
  }
  return pr;
}

namespace {

std::vector<workload::JobSpec> as_specs(const std::vector<AdvisedJob>& jobs, const OnlineOptions& online) {
  std::vector<workload::JobSpec> specs(jobs.size());
  for (size_t i = 0; i < jobs.size(); ++i) {
    auto& s = specs[i];
    s.id = jobs[i].id;
    s.user = jobs[i].user;
    s.vc = jobs[i].vc;
    s.name = jobs[i].name;
    s.gpu_type = jobs[i].text.gpu_type;
    s.num_gpus = jobs[i].text.num_gpus;
    s.submit_time = jobs[i].submit_time;
    // NaN (unknown, or held out) never enters a history.
    s.duration = online.held_out && online.held_out(jobs[i]) ? NAN : jobs[i].duration;
  }
  return specs;
}

// The latest finished job with the same user and name; the Helios-style estimate otherwise.
std::vector<double> previous_run(const std::vector<AdvisedJob>& jobs, const std::vector<workload::JobSpec>& specs,
                                 const std::vector<double>& helios) {
  std::vector<size_t> by_end;
  for (size_t i = 0; i < specs.size(); ++i)
    if (std::isfinite(specs[i].duration)) by_end.push_back(i);
  auto end_of = [&](size_t i) { return specs[i].submit_time + specs[i].duration; };
  std::stable_sort(by_end.begin(), by_end.end(), [&](size_t a, size_t b) { return end_of(a) < end_of(b); });
  std::vector<size_t> order(jobs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return specs[a].submit_time < specs[b].submit_time; });
  std::map<std::string, double> last;
  std::vector<double> out = helios;
  size_t k = 0;
  for (size_t i : order) {
    while (k < by_end.size() && end_of(by_end[k]) <= specs[i].submit_time) {
      const auto& h = specs[by_end[k++]];
      last[h.user + '\x1f' + h.name] = h.duration;
    }
    auto it = last.find(specs[i].user + '\x1f' + specs[i].name);
    if (it != last.end()) out[i] = it->second;
  }
  return out;
}

}  // namespace

std::vector<double> helios_baseline(const std::vector<AdvisedJob>& jobs, const AdvisorOptions& opt) {
  return workload::helios_estimates(as_specs(jobs, {}), opt.prior_duration_s).value;
}

OnlineResult predict_online(const std::vector<AdvisedJob>& jobs, const AdvisorOptions& opt, const OnlineOptions& online) {
  OnlineResult r;
  Advisor advisor(opt);
  using Finish = std::pair<double, size_t>;  // earliest finish, job index
  std::priority_queue<Finish, std::vector<Finish>, std::greater<>> running;
  for (size_t i = 0; i < jobs.size(); ++i) {
    const AdvisedJob& j = jobs[i];
    while (!running.empty() && running.top().first <= j.submit_time) {
      const AdvisedJob& h = jobs[running.top().second];
      advisor.add_history(h);
      running.pop();
    }
    r.schedmate.push_back(advisor.predict(j));
    if (j.duration > 0 && !(online.held_out && online.held_out(j))) running.push({j.submit_time + j.duration, i});
  }
  const auto specs = as_specs(jobs, online);
  r.helios = workload::helios_estimates(specs, opt.prior_duration_s).value;
  if (online.gbdt) {
    workload::GbdtOptions g;
    g.default_s = opt.prior_duration_s;
    g.seed = online.seed;
    r.gbdt = workload::gbdt_estimates(specs, g).value;
  }
  if (online.previous) r.previous = previous_run(jobs, specs, r.helios);
  return r;
}

OnlineResult predict_online_by_vc(const std::vector<AdvisedJob>& jobs, const AdvisorOptions& opt, const OnlineOptions& online) {
  std::map<std::string, std::vector<size_t>> groups;
  for (size_t i = 0; i < jobs.size(); ++i) groups[jobs[i].vc].push_back(i);
  OnlineResult r;
  r.schedmate.resize(jobs.size());
  r.helios.resize(jobs.size());
  if (online.gbdt) r.gbdt.resize(jobs.size());
  if (online.previous) r.previous.resize(jobs.size());
  for (const auto& [vc, idx] : groups) {
    std::vector<AdvisedJob> part;
    part.reserve(idx.size());
    for (size_t i : idx) part.push_back(jobs[i]);
    OnlineResult g = predict_online(part, opt, online);
    for (size_t k = 0; k < idx.size(); ++k) {
      r.schedmate[idx[k]] = std::move(g.schedmate[k]);
      r.helios[idx[k]] = g.helios[k];
      if (online.gbdt) r.gbdt[idx[k]] = g.gbdt[k];
      if (online.previous) r.previous[idx[k]] = g.previous[k];
    }
  }
  return r;
}

double within(const std::vector<double>& p, const std::vector<double>& t, double tol) {
  if (p.empty() || p.size() != t.size()) return 0;
  size_t ok = 0;
  for (size_t i = 0; i < p.size(); ++i)
    if (t[i] > 0 && std::abs(p[i] - t[i]) <= tol * t[i]) ++ok;
  return static_cast<double>(ok) / static_cast<double>(p.size());
}

}  // namespace mlsys::schedmate

namespace mlsys::schedmate {

double median_ape(const std::vector<double>& p, const std::vector<double>& t) {
  std::vector<double> e;
  for (size_t i = 0; i < p.size() && i < t.size(); ++i)
    if (t[i] > 0) e.push_back(std::abs(p[i] - t[i]) / t[i]);
  if (e.empty()) return NAN;
  std::sort(e.begin(), e.end());
  const size_t m = e.size() / 2;
  return e.size() % 2 ? e[m] : 0.5 * (e[m - 1] + e[m]);
}

const config::Section<AdvisorOptions>& advisor_section() {
  using A = AdvisorOptions;
  static const config::Section<A> s("advisor", "SchedMate Scheduling Advisor", [](auto& s) {
    s.field("k", &A::k, "Advisor: neighbours used").range(1, 100);
    s.field("min_similarity", &A::min_similarity, "Advisor: least similarity of a neighbour").range(0, 1);
  });
  return s;
}

}  // namespace mlsys::schedmate
