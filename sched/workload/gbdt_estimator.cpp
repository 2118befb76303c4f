#include "sched/workload/gbdt_estimator.hpp"

#include <xgboost/c_api.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <numeric>
#include <string>
#include <unordered_map>

#include "core/util/error.hpp"
#include "sched/workload/online_order.hpp"

namespace mlsys::workload {
namespace {

// user, vc, name, name's first word, name's last word, gpu type | gpus, hour of day, and what the
// history says of the same user+name, the same name and the user (mean log duration, count).
constexpr int kCategorical = 6;
constexpr int kFeatures = kCategorical + 2 + 6;
constexpr size_t kMaxTrainRows = 20000;  // the most recent finished jobs (Helios retrains on recent history)

void check(int rc, const char* what) {
  if (rc != 0) throw Error(std::string("XGBoost ") + what + ": " + XGBGetLastError());
}

// The first and last words of a job name ("ResNet-18 (batch size 32)" -> "resnet", "32";
// "dgx1_x/bert" -> "dgx1", "bert").
std::string name_word(const std::string& name, bool last) {
  std::vector<std::string> words(1);
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) words.back() += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    else if (!words.back().empty()) words.emplace_back();
  }
  if (words.back().empty() && words.size() > 1) words.pop_back();
  return last ? words.back() : words.front();
}

// Running mean of log durations per key (target statistics known at a job's submit time).
struct LogMean {
  double sum = 0;
  int64_t n = 0;
};

// Categories get codes in the order they enter the history; one never seen is missing (NaN). The
// codes are given to XGBoost as numbers: Debian's XGBoost 1.7.4 with categorical feature types
// predicted orders of magnitude off on the MLPerf runs (v0.6 median APE 3.8 against 0.15 with codes).
class Encoder {
 public:
  float code(const std::string& s) const {
    auto it = codes_.find(s);
    return it == codes_.end() ? NAN : static_cast<float>(it->second);
  }
  void learn(const std::string& s) { codes_.emplace(s, static_cast<int>(codes_.size())); }

 private:
  std::unordered_map<std::string, int> codes_;
};

class Booster {
 public:
  Booster() = default;
  Booster(const Booster&) = delete;
  Booster& operator=(const Booster&) = delete;
  ~Booster() {
    if (h_) XGBoosterFree(h_);
  }
  bool trained() const { return h_ != nullptr; }

  void train(const std::vector<float>& x, const std::vector<float>& y, const GbdtOptions& o) {
    if (h_) XGBoosterFree(h_), h_ = nullptr;
    DMatrixHandle d = matrix(x, y.size());
    try {
      check(XGDMatrixSetFloatInfo(d, "label", y.data(), y.size()), "labels");
      check(XGBoosterCreate(&d, 1, &h_), "booster");
      const std::string depth = std::to_string(o.max_depth), eta = std::to_string(o.learning_rate),
                        seed = std::to_string(o.seed % 2147483647);
      const std::pair<const char*, std::string> params[] = {
          {"objective", "reg:squarederror"}, {"tree_method", "hist"}, {"max_depth", depth}, {"eta", eta},
          {"nthread", "1"}, {"seed", seed}, {"verbosity", "0"}};
      for (const auto& [k, v] : params) check(XGBoosterSetParam(h_, k, v.c_str()), "parameter");
      for (int i = 0; i < o.trees; ++i) check(XGBoosterUpdateOneIter(h_, i, d), "training");
    } catch (...) {
      XGDMatrixFree(d);
      throw;
    }
    XGDMatrixFree(d);
  }

  std::vector<float> predict(const std::vector<float>& x, size_t rows) const {
    DMatrixHandle d = matrix(x, rows);
    bst_ulong n = 0;
    const float* out = nullptr;
    const int rc = XGBoosterPredict(h_, d, 0, 0, 0, &n, &out);
    std::vector<float> v;
    if (rc == 0) v.assign(out, out + n);
    XGDMatrixFree(d);
    check(rc, "prediction");
    if (v.size() != rows) throw Error("XGBoost prediction: wrong number of outputs");
    return v;
  }

 private:
  static DMatrixHandle matrix(const std::vector<float>& x, size_t rows) {
    DMatrixHandle d = nullptr;
    check(XGDMatrixCreateFromMat(x.data(), rows, kFeatures, NAN, &d), "data");
    return d;
  }
  BoosterHandle h_ = nullptr;
};

}  // namespace

DurationEstimates gbdt_estimates(const std::vector<JobSpec>& jobs, const GbdtOptions& opt) {
  static const bool quiet = XGBSetGlobalConfig("{\"verbosity\": 0}") == 0;
  (void)quiet;
  const size_t n = jobs.size();
  auto end_of = [&](size_t i) { return finish_time(jobs[i]); };
  const auto [by_submit, by_end] = online_order(jobs);

  Encoder enc[kCategorical];
  auto categories = [](const JobSpec& j) {
    return std::array<std::string, kCategorical>{j.user, j.vc, j.name, name_word(j.name, false), name_word(j.name, true),
                                                 j.gpu_type};
  };
  // History statistics as of each job's submit time: a job's training row carries what was known
  // when it was submitted, as its prediction did.
  std::unordered_map<std::string, LogMean> by_user_name, by_name, by_user;
  std::vector<std::array<float, 6>> hist_features(n);
  auto snapshot_stats = [&](const JobSpec& j, std::array<float, 6>& f) {
    auto put = [&](const std::unordered_map<std::string, LogMean>& m, const std::string& key, int at) {
      auto it = m.find(key);
      const bool known = it != m.end() && it->second.n > 0;
      f[static_cast<size_t>(at)] = known ? static_cast<float>(it->second.sum / static_cast<double>(it->second.n)) : NAN;
      f[static_cast<size_t>(at) + 1] = known ? static_cast<float>(it->second.n) : 0.0f;
    };
    put(by_user_name, j.user + '\x1f' + j.name, 0);
    put(by_name, j.name, 2);
    put(by_user, j.user, 4);
  };
  auto features = [&](size_t i, std::vector<float>& out) {
    const JobSpec& j = jobs[i];
    const auto cats = categories(j);
    for (int f = 0; f < kCategorical; ++f) out.push_back(enc[f].code(cats[static_cast<size_t>(f)]));
    out.push_back(static_cast<float>(j.num_gpus));
    const double day = std::fmod(j.submit_time, 86400.0);
    out.push_back(static_cast<float>((day < 0 ? day + 86400.0 : day) / 3600.0));
    for (float v : hist_features[i]) out.push_back(v);
  };

  std::vector<size_t> history;  // job indices in finish order
  double hist_sum = 0;
  Booster model;
  size_t trained_on = 0;
  DurationEstimates e;
  e.value.assign(n, opt.default_s);
  std::vector<size_t> pending;  // jobs waiting for the current model's prediction
  auto flush = [&]() {
    if (pending.empty()) return;
    std::vector<float> x;
    x.reserve(pending.size() * kFeatures);
    for (size_t i : pending) features(i, x);
    auto y = model.predict(x, pending.size());
    for (size_t k = 0; k < pending.size(); ++k) e.value[pending[k]] = std::exp(static_cast<double>(y[k]));
    e.sources["gbdt"] += static_cast<int64_t>(pending.size());
    pending.clear();
  };
  size_t k = 0;
  for (size_t i : by_submit) {
    const JobSpec& j = jobs[i];
    bool grew = false;
    while (k < by_end.size() && end_of(by_end[k]) <= j.submit_time) {
      const size_t h = by_end[k++];
      history.push_back(h);
      hist_sum += jobs[h].duration;
      const double ld = std::log(std::max(1.0, jobs[h].duration));
      for (auto* m : {&by_user_name[jobs[h].user + '\x1f' + jobs[h].name], &by_name[jobs[h].name], &by_user[jobs[h].user]})
        m->sum += ld, ++m->n;
      grew = true;
    }
    const size_t hn = history.size();
    if (grew && static_cast<int>(hn) >= opt.min_history &&
        (!model.trained() || static_cast<double>(hn) >= static_cast<double>(trained_on) * (1.0 + opt.retrain_growth))) {
      flush();  // jobs submitted before this point keep the model they would have had
      const size_t first = hn > kMaxTrainRows ? hn - kMaxTrainRows : 0;
      for (size_t r = first; r < hn; ++r) {
        const auto cats = categories(jobs[history[r]]);
        for (int f = 0; f < kCategorical; ++f) enc[f].learn(cats[static_cast<size_t>(f)]);
      }
      std::vector<float> x, y;
      x.reserve((hn - first) * kFeatures);
      for (size_t r = first; r < hn; ++r) {
        features(history[r], x);
        y.push_back(static_cast<float>(std::log(std::max(1.0, jobs[history[r]].duration))));
      }
      model.train(x, y, opt);
      trained_on = hn;
    }
    snapshot_stats(j, hist_features[i]);
    if (model.trained()) {
      pending.push_back(i);
    } else if (hn > 0) {
      e.value[i] = hist_sum / static_cast<double>(hn);
      ++e.sources["history mean"];
    } else {
      ++e.sources["default"];
    }
  }
  flush();
  return e;
}

}  // namespace mlsys::workload
