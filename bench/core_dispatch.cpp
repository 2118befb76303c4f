// What a kernel call pays for its dispatch: the public kernels::<name> (generated from kernels.inc:
// device check of each Tensor argument, the backend's kernel table, an indirect call) against the
// CPU kernel called directly, same run, on 1-element tensors so the kernels' own work is tiny.
//   bench_core_dispatch [calls=200000] [reps=20]
//   bench_core_dispatch CALLS 1 dispatch|direct    CALLS calls of add and of fill one way, untimed:
//       for instruction counts, which a shared machine's load does not blur (docs/BENCHMARKS.md:
//       valgrind --tool=callgrind at two CALLS, the difference per call)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "core/kernels/cpu/cpu_kernels.hpp"
#include "core/kernels/kernels.hpp"

using namespace mlsys;

namespace {
double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
// ns per call of `fn` and of `ref`, each the best of `reps` timings of `calls` calls; the two are
// timed in turns so that a load that comes and goes on a shared machine hits both alike.
template <class Fn, class Ref>
std::pair<double, double> ns_per_call(long calls, int reps, Fn&& fn, Ref&& ref) {
  auto time = [calls](auto& f) {
    const double t0 = now();
    for (long i = 0; i < calls; ++i) f();
    return (now() - t0) * 1e9 / static_cast<double>(calls);
  };
  time(fn), time(ref);  // warm-up
  double best_fn = 1e30, best_ref = 1e30;
  for (int r = 0; r < reps; ++r) best_fn = std::min(best_fn, time(fn)), best_ref = std::min(best_ref, time(ref));
  return {best_fn, best_ref};
}
}  // namespace

int main(int argc, char** argv) {
  const long calls = argc > 1 ? std::atol(argv[1]) : 200000;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 20;
  DeviceContext& ctx = cpu_context();
  Tensor a = Tensor::full({1}, 1.f), b = Tensor::full({1}, 2.f), out = Tensor::zeros({1});
  if (argc > 3) {
    const bool dispatch = std::strcmp(argv[3], "dispatch") == 0;
    for (long i = 0; i < calls; ++i) {
      if (dispatch) {
        kernels::add(ctx, a, b, out);
        kernels::fill(ctx, out, 1.f);
      } else {
        kernels::cpu::add(ctx, a, b, out);
        kernels::cpu::fill(ctx, out, 1.f);
      }
    }
    return 0;
  }
  std::printf("bench_core_dispatch: %ld calls, best of %d\n", calls, reps);
  std::printf("%-28s %12s %12s %12s\n", "kernel", "dispatch ns", "direct ns", "overhead ns");
  const auto [fill_k, fill_c] = ns_per_call(
      calls, reps, [&] { kernels::fill(ctx, out, 1.f); }, [&] { kernels::cpu::fill(ctx, out, 1.f); });
  std::printf("%-28s %12.1f %12.1f %12.1f\n", "fill (1 tensor)", fill_k, fill_c, fill_k - fill_c);
  const auto [add_k, add_c] = ns_per_call(
      calls, reps, [&] { kernels::add(ctx, a, b, out); }, [&] { kernels::cpu::add(ctx, a, b, out); });
  std::printf("%-28s %12.1f %12.1f %12.1f\n", "add (3 tensors)", add_k, add_c, add_k - add_c);
  return 0;
}
