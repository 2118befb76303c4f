#pragma once
// Structured facts about a job, extracted from its command line and (optionally) its entry script:
// what the scheduler would need to know but only sees as free text.
#include <cmath>
#include <string>
#include <string_view>

#include "core/util/json.hpp"

namespace mlsys::schedmate {

struct JobFacts {
  std::string framework;  // pytorch, tensorflow, jax, deepspeed, megatron, "" = unknown
  std::string task;       // image_classification, translation, language_modeling, ...
  std::string model;      // resnet50, transformer, gpt, ...
  std::string dataset;    // cifar10, imagenet, ...
  std::string precision;  // fp32, fp16, bf16, amp ("" = unknown)
  double batch_size = NAN;
  double epochs = NAN;
  double steps = NAN;     // optimizer steps of the whole run
  int num_gpus = 0;             // accelerators (GPUs, TPU chips); 0 with accelerator "cpu" = a CPU job
  int dp = 0, tp = 1, pp = 1;  // dp 0 = all GPUs not used by tp x pp
  std::string accelerator;  // kind: v100, a100, tpu-v4, cpu, "" = unknown
  std::string system;       // the platform a run is tied to (MLPerf system: hardware + software stack)
  std::string software;     // the software stack as a framework flag states it, version included ("" = not stated)
  std::string source = "embedded";

  // The structured retrieval key (everything that decides per-step speed).
  std::string key() const;
  Json to_json() const;
};

struct JobText {
  std::string command;
  std::string script;      // entry script text, may be empty
  std::string name;        // job name / type from the trace
  int num_gpus = 0;
  double trace_steps = 0;  // steps the trace states separately from the command (Gavel)
  std::string gpu_type;    // accelerator kind the trace states ("" = unknown)
};

// Embedded rule-based extraction from generic patterns only (no list of known models or data
// sets): flag values (`--k v`, `--k=v`, Hydra `k=v`), file and folder names, the shape of a job
// name ("ResNet-18 (batch size 32)"), numbers with units ("64 epochs", "batch size 32", "10k steps").
JobFacts extract_facts(const JobText& job);

// A model or data set name as a key: lower case, the last path component, "resnet-18" -> "resnet18".
std::string normalize_name(std::string_view name);

// The command with run-length arguments (steps, epochs) and placeholders removed: the text whose
// n-grams describe *what* runs, not for how long.
std::string retrieval_text(const JobText& job);

// Fills facts from a JSON object (analyzer replies); unknown keys are ignored.
JobFacts facts_from_json(const Json& j, const JobFacts& fallback);

}  // namespace mlsys::schedmate
