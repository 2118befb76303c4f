#pragma once
// Error types shared by every module. The app maps them to exit codes:
// UsageError/ConfigError -> 2 (bad usage or config), everything else -> 1 (runtime failure), and
// any run stopped by SIGINT or SIGTERM -> kExitInterrupted, whatever the command.
#include <filesystem>
#include <ios>
#include <new>
#include <stdexcept>
#include <string>

namespace mlsys {

// A runtime failure the user can act on (missing data, I/O, communication timeout...). Exit 1.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad command line usage. Exit 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad configuration value or file. Exit 2. The message names file:line:col, key, value, allowed.
class ConfigError : public UsageError {
 public:
  using UsageError::UsageError;
};

// An input file or folder the user named (a flag or a config key) that does not exist, is of the
// wrong kind or cannot be read (require_input in core/util/fs.hpp). Exit 2 like any bad config,
// whichever module reads the input: the fix is on the command line or in the config file.
class MissingInput : public ConfigError {
 public:
  using ConfigError::ConfigError;
};

// Bad input data (trace rows, graph files...): names file and line. Exit 1 unless wrapped.
class InputError : public Error {
 public:
  using Error::Error;
};

// A command stopped because the user (or a scheduler: SLURM, Kubernetes, `timeout`) asked it to.
// Long loops throw it when RunContext::stop_requested() and they have nothing to save; commands
// that can save state stop at a safe point and return instead. Either way the run exits with
// kExitInterrupted and its summary.json says run.status = interrupted, run.partial = true.
class Interrupted : public Error {
 public:
  using Error::Error;
};

// Runs `read`, which reads `what` (e.g. "trace /data/philly.csv"), so that failures deep inside a
// library surface as errors naming the input instead of a bare "std::bad_alloc" or stream error:
//   auto trace = reading("trace " + path, [&] { return load_trace(path); });
template <class F>
decltype(auto) reading(const std::string& what, F&& read) {
  try {
    return read();
  } catch (const std::bad_alloc&) {
    throw Error("out of memory while reading " + what +
                ": it needs more memory than this machine has; check that it is the intended input");
  } catch (const std::length_error&) {
    throw Error("out of memory while reading " + what + ": a value in it is larger than memory allows");
  } catch (const std::ios_base::failure& e) {
    throw Error("cannot read " + what + ": " + e.what());
  } catch (const std::filesystem::filesystem_error& e) {
    throw Error("cannot read " + what + ": " + e.what());
  }
}

// The one exit code of an interrupted run, for every command (128 + SIGINT, as shells report it).
inline constexpr int kExitInterrupted = 130;

}  // namespace mlsys
