#pragma once
// Error types shared by every module. The app maps them to exit codes:
// UsageError/ConfigError -> 2 (bad usage or config), everything else -> 1 (runtime failure).
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

// Bad input data (trace rows, graph files...): names file and line. Exit 1 unless wrapped.
class InputError : public Error {
 public:
  using Error::Error;
};

}  // namespace mlsys
