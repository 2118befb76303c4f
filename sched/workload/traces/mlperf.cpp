#include "sched/workload/traces/mlperf.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>

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

// Leading integer of s (0 when none).
int leading_int(std::string_view s) {
  int v = 0;
  size_t i = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && v < 100000000) v = v * 10 + (s[i++] - '0');
  return i > 0 ? v : 0;
}

// Trailing integer of s (0 when none).
int trailing_int(std::string_view s) {
  size_t i = s.size();
  while (i > 0 && std::isdigit(static_cast<unsigned char>(s[i - 1]))) --i;
  return i < s.size() && s.size() - i < 9 ? std::atoi(std::string(s.substr(i)).c_str()) : 0;
}

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
  int per_node = 0, nodes = 1;
  for (size_t i = 0; i < toks.size(); ++i) {
    const std::string& t = toks[i];
    if (t == "dgxa100") a.kind = "a100", per_node = 8;
    else if (t == "dgx2h" || t == "dgx2") a.kind = "v100", per_node = 16;
    else if (t == "dgx1") a.kind = "v100", per_node = 8;
    else if (t.size() > 1 && t[0] == 'n' && std::isdigit(static_cast<unsigned char>(t[1])) && leading_int(t.substr(1)) > 0 &&
             std::to_string(leading_int(t.substr(1))) == t.substr(1))
      nodes = leading_int(t.substr(1));
    else if (t == "tpu" && i + 2 < toks.size() && (toks[i + 1] == "v2" || toks[i + 1] == "v3" || toks[i + 1] == "v4")) {
      a.kind = "tpu-" + toks[i + 1];
      const int cores = leading_int(toks[i + 2]);
      if (cores > 0) a.count = std::max(1, cores / 2);
    }
  }
  if (per_node > 0) a.count = per_node * nodes;
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
        if (p > 0 && t[p - 1] == 'x') a.count = trailing_int(t.substr(0, p - 1));        // 8xv100, 2048xv100
        else if (p + k.size() + 1 < t.size() && t[p + k.size()] == 'x') a.count = leading_int(t.substr(p + k.size() + 1));  // v100x8
        else if (i + 1 < toks.size() && leading_int(toks[i + 1]) > 0) a.count = leading_int(toks[i + 1]);  // v100-512
      }
    }
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
    if (const Json* t = j.find("time_ms"); t && t->is_number()) e.time_s = t->as_number() / 1000.0;
    else if (const Json* t2 = j.find("time_s"); t2 && t2->is_number()) e.time_s = t2->as_number();
    if (const Json* v = j.find("value")) e.value = *v;
    if (const Json* md = j.find("metadata"); md && md->is_object()) e.metadata = *md;
    else e.metadata = Json::object();
    return e;
  }
  // ":::MLL 1558640803.690 run_start: {"value": null, "metadata": {...}}"
  rest = trim(rest);
  char* end = nullptr;
  std::string head(rest.substr(0, std::min<size_t>(rest.size(), 40)));
  const double t = std::strtod(head.c_str(), &end);
  if (end == head.c_str()) return std::nullopt;
  rest.remove_prefix(static_cast<size_t>(end - head.c_str()));
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
