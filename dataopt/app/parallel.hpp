#pragma once
#include <cstddef>
#include <functional>

namespace mlsys::dataopt {

// Runs body(0..count-1) on `workers` threads (dynamic assignment), with BLAS single-threaded
// meanwhile; rethrows the first exception after every worker stopped. Stops handing out work
// on SIGINT.
void run_parallel(size_t count, int workers, const std::function<void(size_t)>& body);

}  // namespace mlsys::dataopt
