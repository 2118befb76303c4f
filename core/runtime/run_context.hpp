#pragma once
// Everything a command run needs from the frame: the resolved config, its output folder (created
// up front, config.yaml written first so every run can be re-run as is), the seed, a summary to
// fill, a record of the inputs it read, and atomic writers for results.
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>

#include "core/config/resolve.hpp"
#include "core/runtime/run_folder.hpp"
#include "core/runtime/run_options.hpp"
#include "core/runtime/run_record.hpp"
#include "core/process/thread_policy.hpp"
#include "core/runtime/table.hpp"
#include "core/util/json.hpp"
#include "core/util/svg_chart.hpp"

namespace mlsys {

class RunContext {
 public:
  // Claims the output folder (core/runtime/run_folder.hpp: locked for this run; a folder holding
  // another run or unrelated files is refused unless run.overwrite), writes config.yaml, opens
  // run.log, applies the thread policy and log level, and installs the SIGINT/SIGTERM handler.
  RunContext(std::string command, config::ResolvedConfig cfg);
  // A context that was neither finished nor failed (an exception escaped past the app) marks
  // its run failed.
  ~RunContext();

  const std::string& command() const { return command_; }
  const config::ResolvedConfig& config() const { return cfg_; }
  template <class T>
  const T& get(const config::Section<T>& s) const {
    return cfg_.get(s);
  }
  const RunOptions& run() const { return cfg_.get(run_section()); }
  uint64_t seed() const { return run().seed; }
  FigureSize figure_size() const { return figure_size_from_name(run().figure_size); }
  // The run's thread count (core/process/thread_policy.hpp), already applied to OpenMP and OpenBLAS;
  // the thread pool (parallel_for) takes it from here.
  int threads() const { return threads_.threads; }
  bool progress_enabled() const;

  // Under an MPI launcher every rank shares the run folder (per-rank files such as shards go
  // there), but only rank 0 writes the run's own files: config.yaml, run.log, results, summary.
  bool primary() const { return primary_; }
  const std::filesystem::path& out_dir() const { return out_dir_; }
  std::filesystem::path path(const std::string& relative) const { return out_dir_ / relative; }
  // Results: a file that cannot be written (disk full) is recorded with missing_output() and the
  // run goes on, so the other results and summary.json still say what is missing.
  void write_text(const std::string& relative, const std::string& content);
  void write_json(const std::string& relative, const Json& j);
  void write_table(const std::string& relative, const Table& t);

  // The input files the run actually read, listed in summary.json under run.inputs with path,
  // size and content hash: call it with the file (or folder) a reader opened, under a stable key
  // ("trace", "graph", "throughputs"). An input that came from no file is recorded as builtin.
  void record_input(const std::string& key, const std::filesystem::path& path);
  void record_builtin_input(const std::string& key, const std::string& what);

  // For an explicit output file the user named (e.g. tracegen.out): refuses to replace an existing
  // file unless run.overwrite, with a ConfigError naming `key`.
  void claim_output_file(const std::string& key, const std::filesystem::path& file) const;

  // Results of the run; written to summary.json by finish() with a "resources" object (wall
  // time, peak host memory, pool statistics) and a "run" object (build, command line, host,
  // times, inputs, status), the only non-deterministic parts.
  Json& summary() { return summary_; }
  // Lines printed to stdout at the end (the short human summary).
  void say(const std::string& line);
  // An output the run should have left and could not write (its last checkpoint on a full disk):
  // the run is then not complete. finish() marks it run.status = incomplete with run.missing
  // listing `output` and `why`, and the command exits 1 (execute_command).
  void missing_output(const std::string& output, const std::string& why);
  bool incomplete() const;
  // "checkpoint.bin, jobs.csv" (with `errors`: "checkpoint.bin (No space left on device); ...").
  std::string missing_text(bool errors = true) const;
  // Writes summary.json and prints the summary lines and where results were written. After an
  // interrupt (stop_requested()) the summary is marked partial: run.status = interrupted; with a
  // missing output (missing_output()) run.status = incomplete.
  void finish();
  // The command stopped by an exception after an interrupt: writes what the summary holds, marked
  // partial, and logs `message`.
  void finish_interrupted(const std::string& message);
  // The run failed with `message`: it goes into run.log (the app prints it on stderr) and the
  // folder is marked failed, so the re-run line works there without --overwrite.
  void fail(const std::string& message);

  // True once SIGINT or SIGTERM arrived: long loops stop at a safe point (saving state when they
  // can) and return, or throw mlsys::Interrupted. A second signal exits at once (code 130).
  static bool stop_requested();

 private:
  std::string config_header() const;
  void write_summary(const std::string& status, const std::string& note);
  std::string command_;
  config::ResolvedConfig cfg_;
  std::optional<RunFolder> folder_;
  std::filesystem::path out_dir_;
  Json summary_ = Json::object();
  RunRecord record_;
  std::vector<std::string> lines_;
  ThreadChoice threads_;
  Json missing_ = Json::array();  // [{"output", "error"}] of missing_output()
  mutable std::mutex missing_mu_;  // results may be written from worker threads
  double start_s_ = 0;
  bool finished_ = false;
  bool primary_ = true;
};

}  // namespace mlsys
