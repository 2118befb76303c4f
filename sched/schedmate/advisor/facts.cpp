#include "sched/schedmate/advisor/facts.hpp"

#include <map>
#include <vector>

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

bool to_number(const std::string& s, double& v) {
  if (s.empty()) return false;
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return end && *end == '\0';
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

// Known names, matched as whole words in lower-cased text (order: most specific first).
const std::vector<std::pair<std::string, std::string>> kModels = {
    {"resnet152", "resnet152"}, {"resnet101", "resnet101"}, {"resnet50", "resnet50"}, {"resnet-50", "resnet50"},
    {"resnet18", "resnet18"},   {"resnet-18", "resnet18"},  {"vgg16", "vgg16"},       {"bert-large", "bert-large"},
    {"bert-base", "bert-base"}, {"bert", "bert"},           {"gpt2", "gpt2"},         {"gpt", "gpt"},
    {"llama", "llama"},         {"t5", "t5"},               {"vit", "vit"},           {"cyclegan", "cyclegan"},
    {"a3c", "a3c"},             {"deepspeech2", "deepspeech2"}, {"yolo", "yolo"},     {"transformer", "transformer"},
    {"ncf", "ncf"},             {"lstm", "lstm"}};
const std::vector<std::string> kDatasets = {"cifar100", "cifar10",   "imagenet", "mnist",     "multi30k", "wikitext103",
                                            "wikitext2", "wikitext", "ml-20m",   "monet2photo", "squad",  "glue",
                                            "c4",        "pile",      "librispeech", "coco",    "pong",    "openwebtext"};
const std::vector<std::pair<std::string, std::string>> kTasks = {
    {"image_classification", "image_classification"}, {"translation", "translation"},
    {"language_modeling", "language_modeling"},       {"recommendation", "recommendation"},
    {"cyclegan", "image_to_image"},                   {"/rl", "reinforcement_learning"},
    {"pretrain_gpt", "language_modeling"},            {"run_glue", "text_classification"},
    {"run_clm", "language_modeling"},                 {"speech", "speech_recognition"},
    {"detection", "object_detection"}};

std::string find_model(const std::string& low) {
  for (const auto& [k, v] : kModels)
    if (low.find(k) != std::string::npos) return v;
  return "";
}

std::string find_dataset(const std::string& low) {
  for (const auto& d : kDatasets)
    if (low.find(d) != std::string::npos) return d;
  return "";
}

std::string task_for_model(const std::string& m) {
  if (m.rfind("resnet", 0) == 0 || m == "vgg16" || m == "vit") return "image_classification";
  if (m == "transformer") return "translation";
  if (m == "lstm" || m.rfind("gpt", 0) == 0 || m == "llama") return "language_modeling";
  if (m == "ncf") return "recommendation";
  if (m == "a3c") return "reinforcement_learning";
  if (m == "cyclegan") return "image_to_image";
  return "";
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
      char* end = nullptr;
      double v = std::strtod(script.c_str() + q, &end);
      if (end != script.c_str() + q) return v;
    }
    p = q;
  }
  return NAN;
}

}  // namespace

std::string JobFacts::key() const {
  auto num = [](double v) { return std::isnan(v) ? std::string("?") : format_number(v); };
  return framework + "|" + task + "|" + model + "|" + dataset + "|" + num(batch_size) + "|" + std::to_string(num_gpus) +
         "|" + precision + "|" + std::to_string(tp) + "x" + std::to_string(pp);
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
  j["source"] = source;
  return j;
}

JobFacts extract_facts(const JobText& job) {
  JobFacts f;
  const std::string low = to_lower(job.command + " " + job.name);
  const std::string script_low = to_lower(job.script);
  const auto flags = flag_values(shell_tokens(job.command));
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
  // Job names like "ResNet-18 (batch size 32)" state the batch too.
  if (std::isnan(f.batch_size)) {
    size_t p = low.find("batch size ");
    if (p != std::string::npos) f.batch_size = std::strtod(low.c_str() + p + 11, nullptr);
    if (f.batch_size == 0) f.batch_size = NAN;
  }
  if (auto* s = lookup(flags, kModel)) f.model = find_model(to_lower(*s));
  if (f.model.empty()) f.model = find_model(low);
  if (f.model.empty()) f.model = find_model(script_low);
  if (auto* s = lookup(flags, kData)) f.dataset = find_dataset(to_lower(*s));
  if (f.dataset.empty()) f.dataset = find_dataset(low);
  for (const auto& [k, t] : kTasks)
    if (low.find(k) != std::string::npos) {
      f.task = t;
      break;
    }
  if (f.task.empty()) f.task = task_for_model(f.model);
  if (f.model.empty() && f.task == "language_modeling" && low.find("main.py") != std::string::npos) f.model = "lstm";
  if (f.model.empty() && f.task == "recommendation") f.model = "ncf";
  // Framework: launcher and imports.
  const std::string all = low + " " + script_low;
  if (all.find("megatron") != std::string::npos || all.find("pretrain_gpt") != std::string::npos) f.framework = "megatron";
  else if (all.find("deepspeed") != std::string::npos) f.framework = "deepspeed";
  else if (all.find("tensorflow") != std::string::npos || all.find("keras") != std::string::npos) f.framework = "tensorflow";
  else if (all.find("jax") != std::string::npos || all.find("flax") != std::string::npos) f.framework = "jax";
  else if (all.find("torch") != std::string::npos || all.find("pytorch") != std::string::npos ||
           all.find("lightning") != std::string::npos || all.find("--cuda") != std::string::npos)
    f.framework = "pytorch";
  // Precision.
  if (flags.count("--bf16") || all.find("bf16") != std::string::npos) f.precision = "bf16";
  else if (flags.count("--fp16") || all.find("--fp16") != std::string::npos || all.find("half") != std::string::npos) f.precision = "fp16";
  else if (flags.count("--amp") || all.find("autocast") != std::string::npos || all.find("mixed") != std::string::npos) f.precision = "amp";
  else f.precision = "fp32";
  // Parallelism.
  f.num_gpus = job.num_gpus;
  if (auto* s = lookup(flags, kTp); s && to_number(*s, v) && v >= 1) f.tp = static_cast<int>(v);
  if (auto* s = lookup(flags, kPp); s && to_number(*s, v) && v >= 1) f.pp = static_cast<int>(v);
  if (f.num_gpus <= 0) {
    auto it = flags.find("--nproc_per_node");
    if (it != flags.end() && to_number(it->second, v)) f.num_gpus = static_cast<int>(v);
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
