#pragma once
// Communication profiles of job types: how many bytes a data-parallel job exchanges per
// iteration, from its model size and its parallelism. The simulator's links slowdown model
// (sim.slowdown_model: links) turns them into network demand; docs/simulate.md lists the table.
//
// A job type is matched by its name (JobSpec::name: "ResNet-50 (batch size 64)" in Gavel
// traces, "resnet50-u12" from the generator, "vgg19" in Tiresias') reduced to lower-case letters
// and digits: the longest table entry that starts it wins ("resnet50batchsize64" -> resnet50).
#include <string>
#include <string_view>
#include <vector>

namespace mlsys::workload {

struct CommProfile {
  std::string job_type;  // as matched: lower-case letters and digits ("resnet50")
  double params_m = 0;   // trainable parameters, millions (fp32 gradients: 4 bytes each)
};

// The documented table: the Gavel/Philly job types, Tiresias' models, the generator's and a few
// common ones (sources in comm_profile.cpp).
const std::vector<CommProfile>& builtin_comm_profiles();
// Parameters (millions) of job types not in the table: ResNet-50's.
inline constexpr double kDefaultParamsM = 25.6;

class CommProfiles {
 public:
  // "builtin" = the table above; otherwise a CSV `job_type,params_m` that replaces it (errors name
  // file:line:col).
  explicit CommProfiles(const std::string& source);
  // The entry for a job name, or nullptr when none matches (then kDefaultParamsM applies).
  const CommProfile* match(std::string_view name) const;
  double params_m(std::string_view name) const;

 private:
  std::vector<CommProfile> table_;  // longest names first
};

// Lower-case letters and digits of `name` ("ResNet-50 (batch size 64)" -> "resnet50batchsize64").
std::string job_type_key(std::string_view name);

// Bytes each of `gpus` data-parallel workers sends per iteration with ring all-reduce of fp32
// gradients: 2 (p - 1) / p x 4 x params (0 for one GPU).
double allreduce_bytes(double params_m, int gpus);

}  // namespace mlsys::workload
