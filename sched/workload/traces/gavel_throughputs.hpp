#pragma once
// Gavel's measured isolated throughputs (gpu_type, job_type, scale_factor -> steps per second),
// which turn the step counts of the Gavel/Philly traces into durations.
#include <map>
#include <optional>
#include <string>
#include <tuple>

namespace mlsys::workload {

class GavelThroughputs {
 public:
  // Reads gavel_isolated_throughputs.csv (gpu_type,job_type,scale_factor,isolated_steps_per_sec).
  static GavelThroughputs load(const std::string& path);
  void add(const std::string& gpu_type, const std::string& job_type, int scale, double steps_per_sec);

  struct Rate {
    double steps_per_sec = 0;
    bool scaled_from_one = false;  // pair missing: scale-1 throughput x scale (as Helios did)
  };
  // nullopt when neither the pair nor its scale-1 entry exists.
  std::optional<Rate> rate(const std::string& gpu_type, const std::string& job_type, int scale) const;
  bool has_gpu_type(const std::string& gpu_type) const;
  size_t size() const { return rates_.size(); }

 private:
  std::map<std::tuple<std::string, std::string, int>, double> rates_;
};

// The rule behind the Helios reference inputs: round half up, at least one second.
double gavel_duration(double total_steps, double steps_per_sec);

class ReadContext;
class RowParser;
struct JobSpec;
// For the Gavel readers: sets job.duration (from job.name, num_gpus, total_steps) with
// trace.gpu_type's throughputs; a job type without any reports a bad row and returns false.
bool set_gavel_duration(ReadContext& ctx, RowParser& row, JobSpec& job);

}  // namespace mlsys::workload
