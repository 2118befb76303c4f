#include "sched/workload/traces/generator.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <numeric>

#include "core/process/long_loop.hpp"
#include "core/io/csv.hpp"
#include "core/util/error.hpp"
#include "core/io/line_reader.hpp"
#include "core/util/random.hpp"
#include "core/util/strings.hpp"
#include "sched/workload/traces/fields.hpp"
#include "sched/workload/traces/native_csv.hpp"
#include "sched/workload/traces/philly_runtime_fit.hpp"
#include "core/util/fs.hpp"

namespace mlsys::workload {

const config::Section<TracegenOptions>& tracegen_section() {
  static const config::Section<TracegenOptions> s(
      "tracegen", "Synthetic trace generator (writes the native trace CSV)", [](auto& s) {
        s.field("jobs", &TracegenOptions::jobs, "Number of jobs to generate").range(1, 1e10);
        s.field("arrival", &TracegenOptions::arrival,
                "Arrival process: poisson, or bursty (two-state on/off Markov-modulated Poisson)")
            .choices({"poisson", "bursty"});
        s.field("rate_per_hour", &TracegenOptions::rate_per_hour, "Mean job arrivals per hour").range(1e-6, 1e12);
        s.field("burst_factor", &TracegenOptions::burst_factor, "bursty: on-state rate as a multiple of the mean")
            .range(1, 1e6);
        s.field("burst_on_s", &TracegenOptions::burst_on_s, "bursty: mean on-period length (seconds)")
            .range(1e-3, 1e9);
        s.field("burst_off_s", &TracegenOptions::burst_off_s, "bursty: mean off-period length (seconds)")
            .range(1e-3, 1e9);
        s.field("gpu_values", &TracegenOptions::gpu_values,
                "GPU demands to draw from; empty = Philly-like 1,2,4,8,16,24,32,64");
        s.field("gpu_weights", &TracegenOptions::gpu_weights,
                "Relative weight of each gpu_values entry; empty = Philly/Gavel counts (5709,361,1442,954,99,2,86,1)");
        s.field("duration", &TracegenOptions::duration,
                "Duration model: empirical (Philly runtime quantiles) or lognormal (mu, sigma below)")
            .choices({"empirical", "lognormal"});
        s.field("runtimes_file", &TracegenOptions::runtimes_file,
                "Durations of the empirical model: builtin (quantiles fitted to the 83,154 Philly runtimes) or a "
                "runtimes CSV such as $MLSYS_DATA_DIR/traces/philly_runtimes.csv (used, or the run stops)");
        s.field("lognormal_mu", &TracegenOptions::lognormal_mu, "Mean of ln(duration seconds)").range(-50, 50);
        s.field("lognormal_sigma", &TracegenOptions::lognormal_sigma, "Std. deviation of ln(duration seconds)")
            .range(0, 20);
        s.field("min_duration_s", &TracegenOptions::min_duration_s, "Shortest duration (durations are whole seconds)")
            .range(1, 1e12);
        s.field("max_duration_s", &TracegenOptions::max_duration_s, "Longest duration; 0 = no cap").range(0, 1e12);
        s.field("users", &TracegenOptions::users, "Number of users (Zipf-distributed activity)").range(1, 1e7);
        s.field("vcs", &TracegenOptions::vcs, "Number of virtual clusters; user u belongs to VC u mod vcs")
            .range(1, 1e6);
        s.field("failed_fraction", &TracegenOptions::failed_fraction, "Share of jobs marked failed").range(0, 1);
        s.field("killed_fraction", &TracegenOptions::killed_fraction, "Share of jobs marked killed").range(0, 1);
        s.field("out", &TracegenOptions::out, "Output CSV path; empty = trace.csv in the run folder");
      });
  return s;
}

namespace {

// Picks from cumulative weights by binary search.
size_t pick(const std::vector<double>& cumulative, double u) {
  double x = u * cumulative.back();
  return static_cast<size_t>(std::upper_bound(cumulative.begin(), cumulative.end(), x) - cumulative.begin());
}

const char* const kModels[] = {"resnet50", "bert", "gpt2", "vgg16", "lstm", "transformer", "yolov5", "deepspeech2"};

}  // namespace

struct TraceGenerator::Impl {
  TracegenOptions o;
  Rng rng;
  int64_t made = 0;
  double t = 0;
  // bursty state
  bool on = true;
  double state_end = 0, rate_on = 0, rate_off = 0;
  std::vector<int> gpu_values;
  std::vector<double> gpu_cum, user_cum;
  std::vector<double> runtimes;  // sorted empirical values (file), or empty
  std::string source;
  std::vector<std::string> user_names, vc_names;
  bool bursty = false, lognormal = false;  // the string options, compared once

  Impl(const TracegenOptions& opts, uint64_t seed) : o(opts), rng(seed) {
    bursty = o.arrival == "bursty";
    lognormal = o.duration == "lognormal";
    if (o.gpu_values.empty()) {
      gpu_values.assign(kPhillyGpuValues.begin(), kPhillyGpuValues.end());
      if (o.gpu_weights.empty()) o.gpu_weights.assign(kPhillyGpuCounts.begin(), kPhillyGpuCounts.end());
    } else {
      for (auto v : o.gpu_values) {
        if (v < 0 || v > 1 << 20) throw ConfigError("tracegen.gpu_values: " + std::to_string(v) + " is out of range");
        gpu_values.push_back(static_cast<int>(v));
      }
    }
    if (o.gpu_weights.empty()) o.gpu_weights.assign(gpu_values.size(), 1.0);
    if (o.gpu_weights.size() != gpu_values.size())
      throw ConfigError("tracegen.gpu_weights has " + std::to_string(o.gpu_weights.size()) + " entries but gpu_values has " +
                        std::to_string(gpu_values.size()) + "; give one weight per value");
    double c = 0;
    for (double w : o.gpu_weights) {
      if (!(w >= 0)) throw ConfigError("tracegen.gpu_weights: weights must be >= 0");
      gpu_cum.push_back(c += w);
    }
    if (c <= 0) throw ConfigError("tracegen.gpu_weights: at least one weight must be positive");
    if (o.failed_fraction + o.killed_fraction > 1)
      throw ConfigError("tracegen.failed_fraction + killed_fraction must be <= 1");
    if (o.max_duration_s > 0 && o.max_duration_s < o.min_duration_s)
      throw ConfigError("tracegen.max_duration_s must be >= min_duration_s (or 0 for no cap)");
    c = 0;
    for (int64_t u = 0; u < o.users; ++u) user_cum.push_back(c += 1.0 / static_cast<double>(u + 1));  // Zipf s=1
    for (int64_t u = 0; u < o.users; ++u) user_names.push_back("u" + std::to_string(u));
    for (int64_t v = 0; v < o.vcs; ++v) vc_names.push_back("vc" + std::to_string(v));
    if (!lognormal) load_runtimes();
    else source = "lognormal";
    if (bursty) {
      double f = o.burst_on_s / (o.burst_on_s + o.burst_off_s);
      rate_on = o.burst_factor * o.rate_per_hour / 3600;
      rate_off = (o.rate_per_hour / 3600 - f * rate_on) / (1 - f);
      if (rate_off < 0) {  // the on state alone must carry the mean rate
        rate_off = 0;
        rate_on = o.rate_per_hour / 3600 / f;
      }
      state_end = rng.exponential(1.0 / o.burst_on_s);
    }
  }

  // The durations come from exactly what runtimes_file names: the built-in table or that file
  // (a file that is not there stops the run; nothing depends on the environment).
  void load_runtimes() {
    const std::string& path = o.runtimes_file;
    if (path == "builtin") {
      source = "builtin-quantiles";
      return;
    }
    if (path.empty())
      throw ConfigError("tracegen.runtimes_file is empty: set builtin (the built-in Philly quantiles) or a runtimes CSV");
    require_input(path, "tracegen.runtimes_file", InputKind::File, "or builtin for the built-in Philly quantiles");
    LineReader in(path);
    std::string_view line;
    while (in.next(line)) {
      if (trim(line).empty()) continue;
      auto v = parse_double(line);
      if (!v) {
        if (in.line_number() == 1) continue;  // header
        throw InputError(path + ":" + std::to_string(in.line_number()) + ":1: runtime '" + std::string(line) +
                         "' is not a number");
      }
      if (*v < 0) throw InputError(path + ":" + std::to_string(in.line_number()) + ":1: negative runtime");
      runtimes.push_back(*v);
    }
    if (runtimes.empty()) throw InputError(path + ": no runtimes");
    std::sort(runtimes.begin(), runtimes.end());
    source = "file:" + path;
  }

  double sample_duration() {
    double d;
    if (lognormal) {
      d = std::exp(o.lognormal_mu + o.lognormal_sigma * rng.normal());
    } else if (!runtimes.empty()) {
      double h = rng.uniform() * static_cast<double>(runtimes.size() - 1);
      size_t lo = static_cast<size_t>(h);
      size_t hi = std::min(lo + 1, runtimes.size() - 1);
      d = runtimes[lo] + (h - static_cast<double>(lo)) * (runtimes[hi] - runtimes[lo]);
    } else {
      // Built-in quantile table: p = 0..0.99 step 0.01, 0.991..0.999 step 0.001, then 1.
      double u = rng.uniform();
      const auto& q = kPhillyRuntimeQuantiles;
      if (u < 0.99) {
        double h = u * 100;
        size_t i = static_cast<size_t>(h);
        d = q[i] + (h - static_cast<double>(i)) * (q[i + 1] - q[i]);
      } else {
        double h = (u - 0.99) * 1000;  // 0..10 over entries 99..109
        size_t i = std::min<size_t>(static_cast<size_t>(h), 9);
        d = q[99 + i] + (h - static_cast<double>(i)) * (q[100 + i] - q[99 + i]);
      }
    }
    d = std::round(d);
    d = std::max(d, o.min_duration_s);
    if (o.max_duration_s > 0) d = std::min(d, o.max_duration_s);
    return d;
  }

  double next_arrival() {
    if (!bursty) return t + rng.exponential(o.rate_per_hour / 3600);
    double now = t;
    for (;;) {
      double rate = on ? rate_on : rate_off;
      double gap = rate > 0 ? rng.exponential(rate) : INFINITY;
      if (now + gap <= state_end) return now + gap;
      // Memoryless: restart the clock at the state switch.
      now = state_end;
      on = !on;
      state_end = now + rng.exponential(1.0 / (on ? o.burst_on_s : o.burst_off_s));
    }
  }
};

TraceGenerator::TraceGenerator(const TracegenOptions& opts, uint64_t seed) : impl_(new Impl(opts, seed)) {}
TraceGenerator::~TraceGenerator() { delete impl_; }
const std::string& TraceGenerator::duration_source() const { return impl_->source; }

bool TraceGenerator::next(JobSpec& j) {
  Impl& m = *impl_;
  if (m.made >= m.o.jobs) return false;
  // The first job arrives at time 0, like the real traces; gaps follow the arrival process.
  if (m.made > 0) m.t = m.next_arrival();
  // Every field is assigned (strings reuse their storage): the same job as from JobSpec{}.
  j.index = m.made;
  char digits[24];
  auto end = std::to_chars(digits, digits + sizeof digits, m.made).ptr;
  j.id.assign(1, 'g').append(digits, end);
  j.submit_time = std::floor(m.t);
  j.duration = m.sample_duration();
  j.num_gpus = m.gpu_values[std::min(pick(m.gpu_cum, m.rng.uniform()), m.gpu_values.size() - 1)];
  j.gpu_milli = 1000;
  j.cpu_milli = 0;
  j.memory_mib = 0;
  j.gpu_type.clear();
  j.command.clear();
  j.total_steps = 0;
  size_t user = std::min(pick(m.user_cum, m.rng.uniform()), m.user_names.size() - 1);
  j.user = m.user_names[user];
  j.vc = m.vc_names[user % m.vc_names.size()];
  const size_t model = static_cast<size_t>(m.rng.next() % (sizeof kModels / sizeof kModels[0]));
  j.name.assign(kModels[model]).append(1, '-').append(j.user);
  double s = m.rng.uniform();
  j.state = s < m.o.failed_fraction                        ? JobState::Failed
            : s < m.o.failed_fraction + m.o.killed_fraction ? JobState::Killed
                                                            : JobState::Completed;
  ++m.made;
  return true;
}

std::vector<JobSpec> generate_trace(const TracegenOptions& opts, uint64_t seed) {
  TraceGenerator g(opts, seed);
  std::vector<JobSpec> jobs;
  jobs.reserve(static_cast<size_t>(std::min<int64_t>(opts.jobs, 1 << 24)));
  JobSpec j;
  while (g.next(j)) jobs.push_back(std::move(j));
  return jobs;
}

int64_t generate_trace_file(const TracegenOptions& opts, uint64_t seed, const std::string& path,
                            std::string* duration_source) {
  TraceGenerator g(opts, seed);
  if (duration_source) *duration_source = g.duration_source();
  // Streamed to a temporary file in the same folder, renamed at the end: atomic without holding
  // the trace in memory; an error or an interrupt removes the temporary file.
  CsvFileWriter out(path);
  std::string rows;
  rows.reserve(1 << 16);
  append_native_header(rows);
  JobSpec j;
  int64_t n = 0;
  LongLoop loop("generate trace", static_cast<uint64_t>(opts.jobs), "jobs");
  while (g.next(j)) {
    append_native_row(rows, j);
    if ((++n & 0x3FF) == 0) {
      out.append_lines(rows);
      rows.clear();
    }
    loop.tick(static_cast<uint64_t>(n));  // a stop leaves no file: `out` removes its temporary
  }
  out.append_lines(rows);
  out.commit();
  loop.finish(static_cast<uint64_t>(n));
  return n;
}

}  // namespace mlsys::workload
