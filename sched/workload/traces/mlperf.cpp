#include "sched/workload/traces/mlperf.hpp"

#include <algorithm>
#include <array>
#include <cctype>

#include "core/util/number_parse.hpp"
#include "core/util/strings.hpp"

namespace mlsys::workload {

namespace {

constexpr std::array<MlperfBenchmark, 8> kBenchmarks{{
    {"resnet", "top1_accuracy", 0.759},
    {"ssd", "map", 0.23},
    {"maskrcnn", "box_map", 0.377},
    {"gnmt", "bleu", 0.24},
    {"transformer", "bleu", 0.25},
    {"minigo", "win_rate", 0.50},
    {"bert", "mlm_accuracy", 0.712},
    {"dlrm", "auc", 0.8025},
}};

// The counts a system name states (core/util/number_parse.hpp): nodes, accelerators and TPU cores
// each in [1, 2^20] (kMaxGpus), as is their product. A count past it ("dgx1_n536870913") is refused,
// never wrapped into a small one.
constexpr IntRule kNameCount{"accelerator or node count in the system name", 1, 1 << 20};

// Leading digits of s as a count: 0 when s does not start with a digit, -1 when refused.
int64_t leading_count(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  if (i == 0) return 0;
  int64_t v = 0;
  return parse_number(s.substr(0, i), kNameCount, v) == NumberProblem::kOk ? v : -1;
}

// Trailing digits of s as a count: 0 when s does not end with a digit, -1 when refused.
int64_t trailing_count(std::string_view s) {
  size_t i = s.size();
  while (i > 0 && std::isdigit(static_cast<unsigned char>(s[i - 1]))) --i;
  if (i == s.size()) return 0;
  int64_t v = 0;
  return parse_number(s.substr(i), kNameCount, v) == NumberProblem::kOk ? v : -1;
}

// An MLLOG line's clock (core/util/number_parse.hpp): finite and not negative; a line whose time
// is refused is not an event (a NaN start would otherwise make any duration).
constexpr RealRule kMllogTimeMs{"time_ms", 0, 1e18};
constexpr RealRule kMllogTimeS{"time_s", 0, 1e15};

bool has_token(const std::vector<std::string>& toks, std::string_view t) {
  for (const auto& x : toks)
    if (x == t) return true;
  return false;
}

std::string quoted_if_blank(const std::string& v) {
  if (v.find_first_of(" \t'") == std::string::npos && !v.empty()) return v;
  std::string out = "\"";
  for (char c : v)
    if (c != '"') out += c;
  return out + "\"";
}

}  // namespace

const MlperfBenchmark* mlperf_benchmark(std::string_view name) {
  for (const auto& b : kBenchmarks)
    if (b.name == name) return &b;
  return nullptr;
}

Accelerators accelerators_from_system(std::string_view system) {
  Accelerators a;
  const std::string s = to_lower(system);
  // Tokens split at '_' and '-' keep "tpu-v3-32" apart as tpu, v3, 32.
  std::vector<std::string> toks;
  std::string cur;
  for (char c : s) {
    if (c == '_' || c == '-') {
      if (!cur.empty()) toks.push_back(cur), cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) toks.push_back(cur);
  int64_t per_node = 0, nodes = 1;
  bool refused = false;  // a count in the name outside kNameCount
  auto count = [&](int64_t c) {
    refused = refused || c < 0;
    return std::max<int64_t>(c, 0);
  };
  for (size_t i = 0; i < toks.size(); ++i) {
    const std::string& t = toks[i];
    if (t == "dgxa100") a.kind = "a100", per_node = 8;
    else if (t == "dgx2h" || t == "dgx2") a.kind = "v100", per_node = 16;
    else if (t == "dgx1") a.kind = "v100", per_node = 8;
    else if (t.size() > 1 && t[0] == 'n' && t[1] != '0' && std::isdigit(static_cast<unsigned char>(t[1])) &&
             t.find_first_not_of("0123456789", 1) == std::string::npos)
      nodes = count(leading_count(t.substr(1)));
    else if (t == "tpu" && i + 2 < toks.size() && (toks[i + 1] == "v2" || toks[i + 1] == "v3" || toks[i + 1] == "v4")) {
      a.kind = "tpu-" + toks[i + 1];
      const int64_t cores = count(leading_count(toks[i + 2]));
      if (cores > 0) a.count = static_cast<int>(std::max<int64_t>(1, cores / 2));
    }
  }
  if (per_node > 0) {
    int64_t total = 0;
    if (check_number(per_node * nodes, kNameCount) == NumberProblem::kOk) total = per_node * nodes;
    else refused = true;
    a.count = static_cast<int>(total);
  }
  if (a.kind.empty()) {
    if (has_token(toks, "cpx") || has_token(toks, "clx")) {
      a.kind = "cpu";
      return a;
    }
    for (const char* kind : {"v100", "a100"}) {
      const std::string k(kind);
      for (size_t i = 0; i < toks.size() && a.kind.empty(); ++i) {
        const std::string& t = toks[i];
        const size_t p = t.find(k);
        if (p == std::string::npos) continue;
        a.kind = k;
        int64_t c = 0;
        if (p > 0 && t[p - 1] == 'x') c = count(trailing_count(t.substr(0, p - 1)));        // 8xv100, 2048xv100
        else if (p + k.size() + 1 < t.size() && t[p + k.size()] == 'x') c = count(leading_count(t.substr(p + k.size() + 1)));  // v100x8
        else if (i + 1 < toks.size() && leading_count(toks[i + 1]) != 0) c = count(leading_count(toks[i + 1]));  // v100-512
        a.count = static_cast<int>(c);
      }
    }
  }
  if (refused) {
    a.count = 0;
    a.problem = "a count in it is outside " + std::to_string(kNameCount.min) + ".." + std::to_string(kNameCount.max) +
                " (or nodes x accelerators per node is)";
  }
  return a;
}

std::string mlperf_command(const MlperfRun& r) {
  std::string out = "mlperf benchmark=" + quoted_if_blank(r.benchmark);
  if (!r.framework.empty()) out += " framework=" + quoted_if_blank(r.framework);
  out += " system=" + quoted_if_blank(r.system);
  if (!r.kind.empty()) out += " accelerator=" + r.kind;
  out += " accelerators=" + std::to_string(r.accelerators);
  if (!r.org.empty()) out += " submitter=" + quoted_if_blank(r.org);
  if (!r.round.empty()) out += " round=" + r.round;
  return out;
}

std::string mlperf_job_name(const MlperfRun& r) { return r.system + "/" + r.benchmark; }

double MllogEvent::meta_number(std::string_view k) const {
  const Json* v = metadata.is_object() ? metadata.find(k) : nullptr;
  return v && v->is_number() ? v->as_number() : NAN;
}

std::string MllogEvent::meta_string(std::string_view k) const {
  const Json* v = metadata.is_object() ? metadata.find(k) : nullptr;
  return v && v->is_string() ? v->as_string() : std::string();
}

std::optional<MllogEvent> parse_mllog_line(std::string_view line) {
  const size_t m = line.find(":::MLL");
  if (m == std::string_view::npos) return std::nullopt;
  std::string_view rest = line.substr(m + 6);
  MllogEvent e;
  if (!rest.empty() && rest.substr(0, 2) == "OG") {
    rest.remove_prefix(2);
    const size_t brace = rest.find('{');
    if (brace == std::string_view::npos) return std::nullopt;
    Json j;
    try {
      j = Json::parse(rest.substr(brace));
    } catch (const std::exception&) {
      return std::nullopt;
    }
    if (!j.is_object()) return std::nullopt;
    const Json* key = j.find("key");
    if (!key || !key->is_string()) return std::nullopt;
    e.key = key->as_string();
    double t = 0;
    if (const Json* ms = j.find("time_ms"); ms && ms->is_number()) {
      if (json_number(*ms, kMllogTimeMs, t) != NumberProblem::kOk) return std::nullopt;
      e.time_s = t / 1000.0;
    } else if (const Json* s = j.find("time_s"); s && s->is_number()) {
      if (json_number(*s, kMllogTimeS, t) != NumberProblem::kOk) return std::nullopt;
      e.time_s = t;
    }
    if (const Json* v = j.find("value")) e.value = *v;
    if (const Json* md = j.find("metadata"); md && md->is_object()) e.metadata = *md;
    else e.metadata = Json::object();
    return e;
  }
  // ":::MLL 1558640803.690 run_start: {"value": null, "metadata": {...}}"
  rest = trim(rest);
  const size_t time_end = std::min(rest.find_first_not_of("0123456789.eE+-"), rest.size());
  double t = 0;
  if (parse_number(rest.substr(0, time_end), kMllogTimeS, t) != NumberProblem::kOk) return std::nullopt;
  rest.remove_prefix(time_end);
  rest = trim(rest);
  const size_t colon = rest.find(':');
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  e.key = std::string(trim(rest.substr(0, colon)));
  e.time_s = t;
  e.metadata = Json::object();
  std::string_view payload = trim(rest.substr(colon + 1));
  if (!payload.empty()) {
    try {
      Json j = Json::parse(payload);
      if (j.is_object() && j.find("value")) {
        e.value = *j.find("value");
        if (const Json* md = j.find("metadata"); md && md->is_object()) e.metadata = *md;
      } else {
        e.value = j;
      }
    } catch (const std::exception&) {
      e.value = Json(std::string(payload));
    }
  }
  return e;
}

double mllog_quality(const Json& v) {
  if (v.is_number()) return v.as_number();
  if (v.is_object()) {
    for (const char* k : {"BBOX", "bbox"})
      if (const Json* b = v.find(k); b && b->is_number()) return b->as_number();
  }
  return NAN;
}

}  // namespace mlsys::workload
