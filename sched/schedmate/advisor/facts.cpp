#include "sched/schedmate/advisor/facts.hpp"

#include <cmath>
#include <map>
#include <string_view>
#include <vector>

#include "core/util/number_parse.hpp"
#include "core/util/strings.hpp"

namespace mlsys::schedmate {

namespace {

std::vector<std::string> shell_tokens(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  char quote = 0;
  for (char c : s) {
    if (quote) {
      if (c == quote) quote = 0;
      else cur += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (!cur.empty()) out.push_back(cur), cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// The numbers a job's text states (core/util/number_parse.hpp). The text is free (commands,
// scripts, names), so a refused number is no fact rather than an error: "--bs nan" or
// "--tp 99999999999" states nothing, and a fraction is never truncated into a count.
constexpr RealRule kFactQuantity{"batch size, steps or epochs", 0, 1e15};
constexpr IntRule kFactWays{"parallel ways or GPUs", 1, 1 << 20};

bool to_number(const std::string& s, double& v) { return parse_number(s, kFactQuantity, v) == NumberProblem::kOk; }
bool to_count(const std::string& s, int& v) {
  int64_t n = 0;
  if (parse_number(s, kFactWays, n) != NumberProblem::kOk) return false;
  v = static_cast<int>(n);
  return true;
}

// The number at the start of `s`, as strtod would read it (sign, digits, '.', exponent); NaN when
// there is none or kFactQuantity refuses it.
double leading_number(std::string_view s) {
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  size_t i = 0;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) ++i;
  while (i < s.size() && (is_digit(s[i]) || s[i] == '.')) ++i;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < s.size() && (s[j] == '-' || s[j] == '+')) ++j;
    if (j < s.size() && is_digit(s[j])) {
      while (j < s.size() && is_digit(s[j])) ++j;
      i = j;
    }
  }
  double v = NAN;
  return parse_number(s.substr(0, i), kFactQuantity, v) == NumberProblem::kOk ? v : NAN;
}

// Flags whose value states a fact ("--batch_size 32", "--batch-size=32", "-b 32").
struct FlagSet {
  std::vector<std::string> names;
};
const FlagSet kBatch{{"--batch_size", "--batch-size", "-batch_size", "-b", "--bs", "--per_device_train_batch_size",
                      "--micro-batch-size", "--train_batch_size", "--global-batch-size", "batch_size"}};
const FlagSet kSteps{{"--num_steps", "-step", "--steps", "--max_steps", "--max-steps", "--train-iters", "--train_iters",
                      "--num_minibatches", "--iters", "--total_steps", "--num_iterations", "-n", "max_steps"}};
const FlagSet kEpochs{{"--epochs", "--num_epochs", "--num_train_epochs", "--max_epochs", "-e", "--epoch", "max_epochs"}};
const FlagSet kModel{{"-a", "--arch", "--model", "--model_name_or_path", "--model_name", "--network", "model"}};
const FlagSet kData{{"--data", "-data", "--data_dir", "--data-path", "--dataset", "--dataset_path", "--dataset_name",
                     "--env", "dataset"}};
const FlagSet kTp{{"--tensor-model-parallel-size", "--tensor_model_parallel_size", "--tp"}};
const FlagSet kPp{{"--pipeline-model-parallel-size", "--pipeline_model_parallel_size", "--pp"}};

// name -> value for "--k v", "--k=v" and "k=v" (Hydra-style) arguments.
std::map<std::string, std::string> flag_values(const std::vector<std::string>& toks) {
  std::map<std::string, std::string> out;
  for (size_t i = 0; i < toks.size(); ++i) {
    const std::string& t = toks[i];
    size_t eq = t.find('=');
    if (eq != std::string::npos && eq > 0) {
      out[t.substr(0, eq)] = t.substr(eq + 1);
    } else if (t.size() > 1 && t[0] == '-' && i + 1 < toks.size() && (toks[i + 1].empty() || toks[i + 1][0] != '-' ||
                                                                     (toks[i + 1].size() > 1 && isdigit(static_cast<unsigned char>(toks[i + 1][1]))))) {
      out[t] = toks[i + 1];
    } else if (t.size() > 1 && t[0] == '-') {
      out[t] = "";
    }
  }
  return out;
}

const std::string* lookup(const std::map<std::string, std::string>& flags, const FlagSet& set) {
  for (const auto& n : set.names) {
    auto it = flags.find(n);
    if (it != flags.end()) return &it->second;
  }
  return nullptr;
}

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Words that name a role, not a thing: folders and scripts every project has.
bool generic_word(std::string_view w) {
  static const char* const kGeneric[] = {"data",    "datasets", "dataset", "raw",     "processed", "train",   "val",
                                         "test",    "main",     "run",     "launch",  "pretrain",  "finetune", "pytorch",
                                         "tf",      "tensorflow", "jax",   "scripts", "script",    "src",     "workspace",
                                         "home",    "mnt",      "tmp",     "input",   "inputs",    "output",  "outputs",
                                         "python",  "python3",  "bin",     "code",    "job",       "jobs",    "workloads"};
  for (const char* g : kGeneric)
    if (w == g) return true;
  return w.empty() || w.find("%s") != std::string_view::npos;
}

// Path components of a value ("%s/data/imagenet/pytorch" -> %s, data, imagenet, pytorch).
std::vector<std::string> path_parts(std::string_view v) {
  std::vector<std::string> parts;
  for (auto& p : split(v, '/'))
    if (!p.empty()) parts.push_back(to_lower(p));
  return parts;
}

// The data set a flag value or path names: a file's name (up to its first dot), else the first
// meaningful folder after a data folder, else the last meaningful component.
std::string dataset_from_value(std::string_view value) {
  auto parts = path_parts(value);
  if (parts.empty()) return "";
  const std::string& last = parts.back();
  const size_t dot = last.find('.');
  if (dot != std::string::npos && dot > 0 && parts.size() > 1) return normalize_name(last.substr(0, dot));
  for (size_t i = 0; i + 1 < parts.size(); ++i)
    if (parts[i] == "data" || parts[i] == "datasets" || parts[i] == "dataset")
      for (size_t k = i + 1; k < parts.size(); ++k)
        if (!generic_word(parts[k])) return normalize_name(parts[k]);
  for (size_t k = parts.size(); k-- > 0;)
    if (!generic_word(parts[k])) return normalize_name(parts[k]);
  return "";
}

// The model a job name states by its shape: the words before a parenthesis or comma
// ("ResNet-18 (batch size 32)" -> resnet18, "CycleGAN" -> cyclegan).
std::string model_from_name(std::string_view name) {
  size_t end = name.find_first_of("(,;:");
  std::string_view head = trim(name.substr(0, end));
  if (head.empty()) return "";
  // One word, or a name of a few words joined by '-' ("bert-large"): as it is.
  const size_t blank = head.find(' ');
  if (blank != std::string_view::npos) head = head.substr(0, blank);
  return normalize_name(head);
}

// The model a script's file name states, without role words ("pretrain_gpt.py" -> gpt,
// "swin_transformer.py" -> swin_transformer); "" for role names alone (main.py, train.py).
std::string model_from_script(const std::vector<std::string>& toks) {
  for (const auto& t : toks) {
    const size_t py = t.rfind(".py");
    if (py == std::string::npos || py + 3 != t.size()) continue;
    std::string stem = to_lower(t.substr(0, py));
    const size_t slash = stem.rfind('/');
    if (slash != std::string::npos) stem = stem.substr(slash + 1);
    std::vector<std::string> words;
    for (auto& w : split(stem, '_'))
      if (!generic_word(w)) words.push_back(w);
    if (!words.empty()) return normalize_name(join(words, "_"));
  }
  return "";
}

// "64 epochs", "10k steps", "batch size 32": the number next to a unit word in lower-case text.
double number_before(const std::string& low, std::string_view unit) {
  size_t p = 0;
  while ((p = low.find(unit, p)) != std::string::npos) {
    const bool word_start = p == 0 || !is_alpha(low[p - 1]);
    const size_t after = p + unit.size();
    const bool word_end = after >= low.size() || !is_alpha(low[after]) || low[after] == 's';
    if (word_start && word_end) {
      size_t e = p;
      while (e > 0 && low[e - 1] == ' ') --e;
      double scale = 1;
      if (e > 0 && (low[e - 1] == 'k' || low[e - 1] == 'm') && e > 1 && is_digit(low[e - 2])) {
        scale = low[e - 1] == 'k' ? 1e3 : 1e6;
        --e;
      }
      size_t b = e;
      while (b > 0 && (is_digit(low[b - 1]) || low[b - 1] == '.')) --b;
      if (b < e && (b == 0 || !is_alpha(low[b - 1]))) return leading_number(std::string_view(low).substr(b, e - b)) * scale;
    }
    p = after;
  }
  return NAN;
}

double number_after(const std::string& low, std::string_view unit) {
  size_t p = low.find(unit);
  if (p == std::string::npos) return NAN;
  p += unit.size();
  while (p < low.size() && (low[p] == ' ' || low[p] == '=' || low[p] == ':')) ++p;
  if (p >= low.size() || !is_digit(low[p])) return NAN;
  return leading_number(std::string_view(low).substr(p));
}

// Machine-learning task words (a taxonomy, not workloads) found as folder or file-name words.
std::string find_task(const std::string& low) {
  static const std::pair<const char*, const char*> kTaskWords[] = {
      {"image_classification", "image_classification"}, {"classification", "classification"},
      {"object_detection", "object_detection"},         {"detection", "object_detection"},
      {"segmentation", "segmentation"},                 {"translation", "translation"},
      {"language_modeling", "language_modeling"},       {"language_model", "language_modeling"},
      {"recommendation", "recommendation"},             {"reinforcement", "reinforcement_learning"},
      {"/rl", "reinforcement_learning"},                {"speech", "speech_recognition"},
      {"question_answering", "question_answering"},     {"summarization", "summarization"}};
  for (const auto& [k, t] : kTaskWords)
    if (low.find(k) != std::string::npos) return t;
  return "";
}

// Framework words: a launcher-level framework (Megatron, DeepSpeed, ...) wherever it appears,
// else the earliest of the general ones ("NGC MXNet 20.06 , NGC PyTorch 20.06" -> mxnet).
std::string find_framework(const std::string& low) {
  static const std::pair<const char*, const char*> kSpecific[] = {
      {"megatron", "megatron"}, {"pretrain_gpt", "megatron"}, {"deepspeed", "deepspeed"},
      {"hugectr", "hugectr"},   {"mindspore", "mindspore"}};
  for (const auto& [k, f] : kSpecific)
    if (low.find(k) != std::string::npos) return f;
  static const std::pair<const char*, const char*> kWords[] = {
      {"tensorflow", "tensorflow"}, {"keras", "tensorflow"}, {"mxnet", "mxnet"},     {"jax", "jax"},
      {"flax", "jax"},              {"pytorch", "pytorch"},  {"torch", "pytorch"},   {"lightning", "pytorch"},
      {"--cuda", "pytorch"}};
  size_t best = std::string::npos;
  std::string out;
  for (const auto& [k, f] : kWords) {
    size_t p = low.find(k);
    if (p != std::string::npos && (best == std::string::npos || p < best)) best = p, out = f;
  }
  // "tf", "tf2.0", "research-tf": TensorFlow's short name as a word.
  if (out.empty()) {
    for (size_t p = low.find("tf"); p != std::string::npos; p = low.find("tf", p + 1)) {
      const bool start = p == 0 || !is_alpha(low[p - 1]);
      const bool end = p + 2 >= low.size() || !is_alpha(low[p + 2]);
      if (start && end) return "tensorflow";
    }
  }
  return out;
}

// Python-style "name = 64" / "name=64" in a script.
double script_assignment(const std::string& script, const std::string& name) {
  size_t p = 0;
  while ((p = script.find(name, p)) != std::string::npos) {
    size_t q = p + name.size();
    while (q < script.size() && script[q] == ' ') ++q;
    if (q < script.size() && script[q] == '=') {
      ++q;
      while (q < script.size() && script[q] == ' ') ++q;
      if (const double v = leading_number(std::string_view(script).substr(q)); !std::isnan(v)) return v;
    }
    p = q;
  }
  return NAN;
}

}  // namespace

std::string JobFacts::key() const {
  auto num = [](double v) { return std::isnan(v) ? std::string("?") : format_number(v); };
  return framework + "|" + task + "|" + model + "|" + dataset + "|" + num(batch_size) + "|" + std::to_string(num_gpus) +
         "|" + precision + "|" + std::to_string(tp) + "x" + std::to_string(pp) + "|" + accelerator + "|" + system;
}

Json JobFacts::to_json() const {
  auto num = [](double v) { return std::isnan(v) ? Json(nullptr) : Json(v); };
  Json j = Json::object();
  j["framework"] = framework;
  j["task"] = task;
  j["model"] = model;
  j["dataset"] = dataset;
  j["batch_size"] = num(batch_size);
  j["epochs"] = num(epochs);
  j["steps"] = num(steps);
  j["num_gpus"] = num_gpus;
  j["dp"] = dp;
  j["tp"] = tp;
  j["pp"] = pp;
  j["precision"] = precision;
  j["accelerator"] = accelerator;
  j["system"] = system;
  j["software"] = software;
  j["source"] = source;
  return j;
}

std::string normalize_name(std::string_view name) {
  std::string s = to_lower(trim(name));
  while (!s.empty() && s.back() == '/') s.pop_back();
  const size_t slash = s.rfind('/');
  if (slash != std::string::npos) s = s.substr(slash + 1);
  // "resnet-18" -> "resnet18": a hyphen between a word and the number that ends the name.
  const size_t dash = s.rfind('-');
  if (dash != std::string::npos && dash > 0 && dash + 1 < s.size() && is_alpha(s[dash - 1])) {
    bool digits = true;
    for (size_t i = dash + 1; i < s.size(); ++i) digits = digits && is_digit(s[i]);
    if (digits) s.erase(dash, 1);
  }
  return s;
}

JobFacts extract_facts(const JobText& job) {
  JobFacts f;
  const std::string low = to_lower(job.command + " " + job.name);
  const std::string script_low = to_lower(job.script);
  const auto toks = shell_tokens(job.command);
  const auto flags = flag_values(toks);
  double v = 0;
  if (auto* s = lookup(flags, kBatch); s && to_number(*s, v)) f.batch_size = v;
  if (auto* s = lookup(flags, kSteps); s && to_number(*s, v)) f.steps = v;
  if (auto* s = lookup(flags, kEpochs); s && to_number(*s, v)) f.epochs = v;
  if (std::isnan(f.steps) && job.trace_steps > 0) f.steps = job.trace_steps;
  if (!job.script.empty()) {
    if (std::isnan(f.batch_size)) f.batch_size = script_assignment(script_low, "batch_size");
    if (std::isnan(f.epochs)) f.epochs = script_assignment(script_low, "max_epochs");
    if (std::isnan(f.epochs)) f.epochs = script_assignment(script_low, "epochs");
    if (std::isnan(f.steps)) f.steps = script_assignment(script_low, "max_steps");
  }
  // Numbers with units in the name and command ("ResNet-18 (batch size 32)", "90 epochs").
  if (std::isnan(f.batch_size)) f.batch_size = number_after(low, "batch size");
  if (std::isnan(f.epochs)) f.epochs = number_before(low, "epoch");
  if (std::isnan(f.steps)) f.steps = number_before(low, "step");
  if (std::isnan(f.steps)) f.steps = number_before(low, "iteration");
  if (f.batch_size == 0) f.batch_size = NAN;
  // Model: a model flag, else the job name's shape, else the script's file name.
  if (auto* s = lookup(flags, kModel)) f.model = normalize_name(*s);
  if (f.model.empty()) f.model = model_from_name(job.name);
  if (f.model.empty()) f.model = model_from_script(toks);
  // Data set: a data flag, else a path argument through a data folder.
  if (auto* s = lookup(flags, kData)) f.dataset = dataset_from_value(*s);
  if (f.dataset.empty())
    for (const auto& t : toks)
      if (t.find("/data/") != std::string::npos || t.find("/datasets/") != std::string::npos) {
        f.dataset = dataset_from_value(t);
        if (!f.dataset.empty()) break;
      }
  if (auto it = flags.find("task"); it != flags.end()) f.task = to_lower(it->second);
  if (f.task.empty()) f.task = find_task(low);
  // Framework: a framework flag (MLPerf systems state one), else launcher and imports.
  if (auto it = flags.find("framework"); it != flags.end()) {
    f.framework = find_framework(to_lower(it->second));
    for (const auto& w : split(to_lower(it->second), ' '))
      if (!w.empty()) f.software += (f.software.empty() ? "" : " ") + w;
  }
  if (f.framework.empty()) f.framework = find_framework(low + " " + script_low);
  const std::string all = low + " " + script_low;
  // Precision.
  if (flags.count("--bf16") || all.find("bf16") != std::string::npos) f.precision = "bf16";
  else if (flags.count("--fp16") || all.find("--fp16") != std::string::npos || all.find("half") != std::string::npos) f.precision = "fp16";
  else if (flags.count("--amp") || all.find("autocast") != std::string::npos || all.find("mixed") != std::string::npos) f.precision = "amp";
  else f.precision = "fp32";
  // Accelerators and platform.
  f.accelerator = to_lower(job.gpu_type);
  if (f.accelerator.empty())
    if (auto it = flags.find("accelerator"); it != flags.end()) f.accelerator = to_lower(it->second);
  if (auto it = flags.find("system"); it != flags.end()) f.system = it->second;
  // Parallelism.
  f.num_gpus = job.num_gpus;
  if (auto* s = lookup(flags, kTp)) to_count(*s, f.tp);
  if (auto* s = lookup(flags, kPp)) to_count(*s, f.pp);
  if (f.num_gpus <= 0) {
    auto it = flags.find("--nproc_per_node");
    if (it != flags.end()) to_count(it->second, f.num_gpus);
  }
  f.dp = std::max(1, f.num_gpus / std::max(1, f.tp * f.pp));
  return f;
}

std::string retrieval_text(const JobText& job) {
  auto toks = shell_tokens(job.command);
  std::string out;
  for (size_t i = 0; i < toks.size(); ++i) {
    std::string t = toks[i];
    // Drop run-length flags and their values; they say how long, not what.
    bool length_flag = false;
    for (const auto* set : {&kSteps, &kEpochs})
      for (const auto& n : set->names)
        if (t == n || t.rfind(n + "=", 0) == 0) length_flag = true;
    if (length_flag) {
      if (t.find('=') == std::string::npos) ++i;
      continue;
    }
    size_t ph;
    while ((ph = t.find("%s")) != std::string::npos) t.erase(ph, 2);
    if (!out.empty()) out += ' ';
    out += t;
  }
  return to_lower(out + " " + job.name);
}

JobFacts facts_from_json(const Json& j, const JobFacts& fb) {
  JobFacts f = fb;
  auto str = [&](const char* k, std::string& dst) {
    if (auto* v = j.find(k); v && v->is_string() && !v->as_string().empty()) dst = to_lower(v->as_string());
  };
  auto num = [&](const char* k, double& dst) {
    if (auto* v = j.find(k); v && v->is_number() && v->as_number() > 0) dst = v->as_number();
  };
  str("framework", f.framework);
  str("task", f.task);
  str("model", f.model);
  str("dataset", f.dataset);
  str("precision", f.precision);
  str("accelerator", f.accelerator);
  num("batch_size", f.batch_size);
  num("epochs", f.epochs);
  num("steps", f.steps);
  double tp = f.tp, pp = f.pp;
  num("tensor_parallel", tp);
  num("pipeline_parallel", pp);
  f.tp = static_cast<int>(tp);
  f.pp = static_cast<int>(pp);
  f.dp = std::max(1, f.num_gpus / std::max(1, f.tp * f.pp));
  return f;
}

}  // namespace mlsys::schedmate
