#pragma once
// Errors raised by communicators. CommAbortedError marks a failure that is only the consequence
// of another rank's failure, so run_inproc can rethrow the root cause instead.
#include <string>

#include "core/util/error.hpp"

namespace mlsys::comm {

class CommError : public Error {
 public:
  using Error::Error;
};

class CommTimeoutError : public CommError {
 public:
  using CommError::CommError;
};

class CommAbortedError : public CommError {
 public:
  using CommError::CommError;
};

// "0.2 s", "120 s": seconds as the user wrote them in comm.timeout_s.
std::string seconds_text(double s);

}  // namespace mlsys::comm
