#include "sched/schedmate/tracker/progress_parsers.hpp"

#include <algorithm>
#include <cstring>

#include "core/util/strings.hpp"
#include "sched/schedmate/tracker/line_time.hpp"
#include "sched/workload/traces/mlperf.hpp"

namespace mlsys::schedmate {

namespace {

inline bool dig(char c) { return c >= '0' && c <= '9'; }
inline char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Case-insensitive: does `s` end (ignoring trailing blanks, ':' and '[') with `word`?
bool ends_with_word(std::string_view s, std::string_view word) {
  size_t e = s.size();
  while (e > 0 && (s[e - 1] == ' ' || s[e - 1] == ':' || s[e - 1] == '[' || s[e - 1] == '\t' || s[e - 1] == '#')) --e;
  if (e < word.size()) return false;
  for (size_t i = 0; i < word.size(); ++i)
    if (lower(s[e - word.size() + i]) != word[i]) return false;
  // Whole word: the character before must not be a letter.
  if (e > word.size()) {
    char b = lower(s[e - word.size() - 1]);
    if (b >= 'a' && b <= 'z') return false;
  }
  return true;
}

bool starts_with_ci(std::string_view s, std::string_view w) {
  if (s.size() < w.size()) return false;
  for (size_t i = 0; i < w.size(); ++i)
    if (lower(s[i]) != w[i]) return false;
  return true;
}

size_t find_ci(std::string_view s, std::string_view w, size_t from = 0) {
  if (w.empty() || s.size() < w.size()) return std::string_view::npos;
  const char first_l = w[0], first_u = static_cast<char>(first_l - 'a' + 'A');
  for (size_t i = from; i + w.size() <= s.size(); ++i) {
    if (s[i] != first_l && s[i] != first_u) continue;
    if (starts_with_ci(s.substr(i), w)) return i;
  }
  return std::string_view::npos;
}

// "a / b" around the slash at `slash`: integers (spaces allowed). Fills start of a, end of b.
bool fraction_at(std::string_view s, size_t slash, double& a, double& b, size_t& a_start, size_t& b_end) {
  size_t i = slash;
  while (i > 0 && s[i - 1] == ' ') --i;
  size_t e = i;
  while (i > 0 && dig(s[i - 1])) --i;
  if (i == e) return false;
  if (i > 0 && (s[i - 1] == '.' || s[i - 1] == '/' || s[i - 1] == '-')) return false;  // dates, paths, decimals
  a_start = i;
  a = 0;
  for (size_t k = i; k < e; ++k) a = a * 10 + (s[k] - '0');
  size_t j = slash + 1;
  while (j < s.size() && s[j] == ' ') ++j;
  size_t bs = j;
  b = 0;
  while (j < s.size() && dig(s[j])) b = b * 10 + (s[j++] - '0');
  if (j == bs) return false;
  if (j < s.size() && (s[j] == '/' || s[j] == '.' || s[j] == '-')) return false;
  b_end = j;
  return b > 0;
}

// tqdm's "[01:23<01:40,  5.42it/s" starting at '['.
void parse_tqdm_tail(std::string_view s, size_t lb, ProgressObs& o) {
  size_t lt = s.find('<', lb);
  if (lt == std::string_view::npos || lt - lb > 12) return;
  double el = 0;
  if (parse_clock(s.substr(lb + 1, lt - lb - 1), el)) o.elapsed_s = el;
  size_t comma = s.find(',', lt);
  if (comma == std::string_view::npos || comma - lt > 14) return;
  double rem = 0;
  if (parse_clock(s.substr(lt + 1, comma - lt - 1), rem)) o.bar_remaining_s = rem;
  size_t p = comma + 1;
  while (p < s.size() && s[p] == ' ') ++p;
  double v = 0;
  if (!parse_number(s, p, v) || v <= 0) return;
  std::string_view unit = s.substr(p, 4);
  if (unit == "it/s") o.rate_hint = v;
  else if (unit == "s/it") o.rate_hint = 1.0 / v;
}

// Lightning's "Epoch 3: ..." prefix (0-based epoch).
bool lightning_epoch(std::string_view prefix, double& epoch) {
  size_t p = 0;
  while (p < prefix.size() && prefix[p] == ' ') ++p;
  if (!starts_with_ci(prefix.substr(p), "epoch ")) return false;
  p += 6;
  double e = 0;
  if (!parse_number(prefix, p, e)) return false;
  if (p >= prefix.size() || prefix[p] != ':') return false;
  epoch = e;
  return true;
}

double number_after(std::string_view s, size_t from) {
  size_t p = from;
  while (p < s.size() && (s[p] == ' ' || s[p] == '=' || s[p] == ':' || s[p] == '.' || s[p] == '"' || s[p] == '\t')) {
    // Dotted leaders ("train_iters ...... 5000") are skipped, but not a decimal point before a digit.
    if (s[p] == '.' && p + 1 < s.size() && dig(s[p + 1])) break;
    ++p;
  }
  double v = NAN;
  if (!parse_number(s, p, v)) return NAN;
  return v;
}

}  // namespace

const char* to_string(LogFormat f) {
  switch (f) {
    case LogFormat::Unknown: return "unknown";
    case LogFormat::Tqdm: return "tqdm";
    case LogFormat::Lightning: return "lightning";
    case LogFormat::HfTrainer: return "hf_trainer";
    case LogFormat::Megatron: return "megatron";
    case LogFormat::Keras: return "keras";
    case LogFormat::DeepSpeed: return "deepspeed";
    case LogFormat::Plain: return "plain";
    case LogFormat::Mlperf: return "mlperf";
    case LogFormat::Learned: return "learned";
  }
  return "unknown";
}

bool parse_number(std::string_view s, size_t& pos, double& value) {
  size_t p = pos;
  bool neg = false;
  if (p < s.size() && s[p] == '-') {
    neg = true;
    ++p;
  }
  size_t start = p;
  double v = 0;
  while (p < s.size() && dig(s[p])) v = v * 10 + (s[p++] - '0');
  if (p < s.size() && s[p] == '.' && p + 1 < s.size() && dig(s[p + 1])) {
    ++p;
    double scale = 0.1;
    while (p < s.size() && dig(s[p])) {
      v += (s[p++] - '0') * scale;
      scale *= 0.1;
    }
  }
  if (p == start) return false;
  if (p < s.size() && (s[p] == 'e' || s[p] == 'E') && p + 1 < s.size() && (dig(s[p + 1]) || s[p + 1] == '-' || s[p + 1] == '+')) {
    size_t q = p + 1;
    bool eneg = s[q] == '-';
    if (s[q] == '-' || s[q] == '+') ++q;
    int ex = 0;
    size_t qs = q;
    while (q < s.size() && dig(s[q])) ex = ex * 10 + (s[q++] - '0');
    if (q > qs) {
      v *= std::pow(10.0, eneg ? -ex : ex);
      p = q;
    }
  }
  value = neg ? -v : v;
  pos = p;
  return true;
}

bool first_number(std::string_view token, double& value) {
  for (size_t i = 0; i < token.size(); ++i) {
    if (dig(token[i])) {
      size_t p = i;
      return parse_number(token, p, value);
    }
  }
  return false;
}

namespace {

// An MLLOG event: epochs for progress, eval quality, run_start/run_stop.
bool parse_mllog(std::string_view s, ParserState& st, ProgressObs& o) {
  auto e = workload::parse_mllog_line(s);
  if (!e) return false;
  st.line_time_s = e->time_s;
  double epoch = NAN;
  if (e->key == "submission_benchmark" && e->value.is_string()) {
    st.benchmark = e->value.as_string();
    if (const auto* b = workload::mlperf_benchmark(st.benchmark)) st.quality_target = b->target;
  } else if (e->key == "run_start") {
    if (std::isnan(st.run_start_s)) st.run_start_s = e->time_s;
  } else if (e->key == "run_stop") {
    st.run_stop_s = e->time_s;
    st.run_status = to_lower(e->meta_string("status"));
    if (st.run_status.empty()) st.run_status = "stopped";
  } else if (e->key == "eval_accuracy") {
    const double q = workload::mllog_quality(e->value);
    if (!std::isnan(q)) st.quality = q;
    epoch = e->meta_number("epoch_num");
  } else if (e->key == "epoch_stop") {
    epoch = e->meta_number("epoch_num");
  } else if (e->key == "block_stop") {
    const double first = e->meta_number("first_epoch_num"), count = e->meta_number("epoch_count");
    if (!std::isnan(first) && !std::isnan(count)) epoch = first + count - 1;
  }
  if (std::isnan(epoch) || (!std::isnan(st.epochs_done) && epoch <= st.epochs_done)) return false;
  st.epochs_done = epoch;
  o.format = LogFormat::Mlperf;
  o.epochs = true;
  o.done = epoch;
  o.total = st.total_epochs_hint;
  return true;
}

}  // namespace

bool parse_progress(std::string_view s, ParserState& st, ProgressObs& o) {
  o = ProgressObs{};
  st.line_time_s = NAN;
  if (s.find(":::MLL") != std::string_view::npos) return parse_mllog(s, st, o);
  // 1) "a/b" fractions with a recognisable context.
  size_t from = 0;
  for (int tries = 0; tries < 8; ++tries) {
    const void* hit = std::memchr(s.data() + from, '/', s.size() - from);
    if (!hit) break;
    size_t slash = static_cast<size_t>(static_cast<const char*>(hit) - s.data());
    from = slash + 1;
    double a = 0, b = 0;
    size_t as = 0, be = 0;
    if (!fraction_at(s, slash, a, b, as, be)) continue;
    std::string_view prefix = s.substr(0, as);
    size_t q = be;
    while (q < s.size() && s[q] == ' ') ++q;
    const bool bracket = q + 1 < s.size() && s[q] == '[';
    if (bracket && dig(s[q + 1])) {  // tqdm bar: Lightning, HF Trainer or plain tqdm
      parse_tqdm_tail(s, q, o);
      o.bar_fraction = std::clamp(a / b, 0.0, 1.0);  // a bar past its total (n > total) is done, not more
      double epoch = 0;
      if (lightning_epoch(prefix, epoch)) {
        o.format = LogFormat::Lightning;
        o.epochs = true;
        o.done = epoch + a / b;
        o.total = st.total_epochs_hint;
        if (!std::isnan(o.rate_hint)) o.rate_hint /= b;
      } else {
        o.format = st.hf_seen ? LogFormat::HfTrainer : LogFormat::Tqdm;
        o.done = a;
        o.total = b;
        o.bar_is_run = true;
      }
      return true;
    }
    if (bracket && (s[q + 1] == '=' || s[q + 1] == '.' || s[q + 1] == '>')) {  // Keras step bar
      o.format = LogFormat::Keras;
      if (!std::isnan(st.keras_epoch)) {
        o.epochs = true;
        o.done = st.keras_epoch - 1 + a / b;
        o.total = st.keras_epochs;
      } else {
        o.done = a;
        o.total = b;
      }
      return true;
    }
    if (ends_with_word(prefix, "iteration")) {
      o.format = LogFormat::Megatron;
      o.done = a;
      o.total = b;
      size_t el = s.find("per iteration (ms)", be);
      if (el != std::string_view::npos) {
        double ms = number_after(s, el + 18);
        if (ms > 0) o.rate_hint = 1000.0 / ms;
      }
      return true;
    }
    if (ends_with_word(prefix, "epoch")) {
      // "epoch 2/10 step 300/1000" (1-based epoch with a position inside it) or a Keras header.
      size_t inner = std::string_view::npos;
      for (size_t k = be; k < s.size(); ++k)
        if (s[k] == '/') {
          inner = k;
          break;
        }
      double c = 0, d = 0;
      size_t cs = 0, ce = 0;
      if (inner != std::string_view::npos && fraction_at(s, inner, c, d, cs, ce)) {
        o.format = LogFormat::Plain;
        o.epochs = true;
        o.done = a - 1 + c / d;
        o.total = b;
        return true;
      }
      st.keras_epoch = a;
      st.keras_epochs = b;
      size_t rest = be;
      while (rest < s.size() && s[rest] == ' ') ++rest;
      o.format = rest == s.size() ? LogFormat::Keras : LogFormat::Plain;
      o.epochs = true;
      o.done = rest == s.size() ? a - 1 : a;  // Keras prints the header when the epoch starts
      o.total = b;
      return true;
    }
    if (ends_with_word(prefix, "step") || ends_with_word(prefix, "iter") || ends_with_word(prefix, "it") ||
        ends_with_word(prefix, "batch") || ends_with_word(prefix, "steps")) {
      o.format = LogFormat::Plain;
      o.done = a;
      o.total = b;
      return true;
    }
  }
  // 2) Counters without a total: DeepSpeed "step=120," and plain "iter 120" / "step 120".
  size_t p = s.find("step=");
  if (p != std::string_view::npos && (p == 0 || s[p - 1] == ' ' || s[p - 1] == ',')) {
    size_t q = p + 5;
    double v = 0;
    if (parse_number(s, q, v)) {
      o.format = LogFormat::DeepSpeed;
      o.done = v;
      o.total = st.total_steps_hint;
      return true;
    }
  }
  if (!st.hf_seen && s.find("{'loss'") != std::string_view::npos) st.hf_seen = true;
  return false;
}

bool parse_length_hint(std::string_view s, ParserState& st) {
  struct Key {
    const char* text;
    bool epochs;
  };
  static const Key kKeys[] = {{"total optimization steps", false}, {"max_steps", false}, {"train_iters", false},
                              {"total_steps", false}, {"train-iters", false},   {"num epochs", true},
                              {"max_epochs", true},   {"num_train_epochs", true}, {"--epochs", true}};
  bool any = false;
  for (const auto& k : kKeys) {
    size_t p = find_ci(s, k.text);
    if (p == std::string_view::npos) continue;
    double v = number_after(s, p + std::strlen(k.text));
    if (!(v > 0)) continue;
    (k.epochs ? st.total_epochs_hint : st.total_steps_hint) = v;
    any = true;
  }
  return any;
}

}  // namespace mlsys::schedmate
