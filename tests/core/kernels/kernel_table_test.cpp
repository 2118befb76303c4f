// A kernel is declared once, in kernels.inc: the table's slots, the CPU table and the public
// dispatchers are generated from that entry. These tests walk the same list (this file includes
// kernels.inc as the library does), so a kernel added there is covered here without an edit: its
// CPU slot must be filled, and its dispatcher must reject every Tensor and Csr argument that is not
// on the context's device before any backend runs.
#include <doctest/doctest.h>

#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/kernels/kernel_table.hpp"

using namespace mlsys;
using namespace mlsys::kernels;

namespace {

// Every kernel of kernels.inc, in its order.
std::vector<std::string> kernel_names() {
  return {
#define MLSYS_KERNEL(ret, name, params, args) #name,
#include "core/kernels/kernels.inc"
#undef MLSYS_KERNEL
  };
}

// Host memory labelled as another device's: the dispatchers' check reads the label only, and
// nothing else runs when it works.
float g_storage[4] = {};
Tensor foreign_tensor(DType dtype = DType::f32) {
  return Tensor::wrap(g_storage, Shape{1}, dtype, Device::cuda(0));
}

// The argument of type T at position `index` of a call; `foreign` is the position that gets a
// tensor on another device (a Csr gets it in the array `csr_array`: 0 row_ptr, 1 col, 2 values).
// Every other Tensor is undefined (an absent optional, which the check skips) and every other
// value is value-initialized.
template <class T>
T argument(size_t index, size_t foreign, int csr_array) {
  if constexpr (std::is_same_v<T, Tensor>) {
    return index == foreign ? foreign_tensor() : Tensor();
  } else if constexpr (std::is_same_v<T, Csr>) {
    Csr a;
    if (index == foreign) {
      a.rows = a.cols = 1;
      (csr_array == 0 ? a.row_ptr : csr_array == 1 ? a.col : a.values) = foreign_tensor();
    }
    return a;
  } else {
    return T{};
  }
}

template <class T>
constexpr bool kOnDevice = std::is_same_v<T, Tensor> || std::is_same_v<T, Csr>;

// Calls `fn` once per (device argument, Csr array) with that one argument on another device and
// checks the dispatcher throws its device error naming the kernel. Returns the calls made.
template <class Ret, class... P, size_t... I>
int check_rejects_foreign(const std::string& name, Ret (*fn)(DeviceContext&, P...), std::index_sequence<I...>) {
  using Params = std::tuple<std::decay_t<P>...>;
  DeviceContext ctx;  // the host
  int calls = 0;
  for (size_t foreign = 0; foreign < sizeof...(P); ++foreign) {
    const bool is_csr = ((I == foreign && std::is_same_v<std::tuple_element_t<I, Params>, Csr>) || ...);
    const bool on_device = ((I == foreign && kOnDevice<std::tuple_element_t<I, Params>>) || ...);
    if (!on_device) continue;
    for (int csr_array = 0; csr_array < (is_csr ? 3 : 1); ++csr_array) {
      INFO("kernels::" << name << ", argument " << foreign + 1 << " after ctx, csr array " << csr_array);
      std::string what;
      try {
        fn(ctx, argument<std::tuple_element_t<I, Params>>(I, foreign, csr_array)...);
      } catch (const Error& e) {
        what = e.what();
      }
      CHECK(what.find("kernels::" + name + ": tensor") != std::string::npos);
      CHECK(what.find("is not on the context's device cpu") != std::string::npos);
      ++calls;
    }
  }
  return calls;
}

template <class Ret, class... P>
int check_rejects_foreign(const std::string& name, Ret (*fn)(DeviceContext&, P...)) {
  return check_rejects_foreign(name, fn, std::index_sequence_for<P...>{});
}

}  // namespace

TEST_CASE("kernel table: the CPU backend fills a slot for every kernel of kernels.inc") {
  const std::vector<std::string> names = kernel_names();
  REQUIRE(names.size() > 40);
  CHECK(cpu_kernel_table().missing() == "");
  // An empty table names every kernel, in kernels.inc's order: missing() walks the same list.
  std::string all;
  for (const std::string& n : names) all += (all.empty() ? "" : ", ") + n;
  CHECK(KernelTable().missing() == all);
  KernelTable one_short = cpu_kernel_table();
  one_short.spmm = nullptr;
  CHECK(one_short.missing() == "spmm");
}

TEST_CASE("kernel table: every dispatcher rejects each Tensor and Csr argument on another device") {
  int calls = 0;
#define MLSYS_KERNEL(ret, name, params, args) calls += check_rejects_foreign(#name, &kernels::name);
#include "core/kernels/kernels.inc"
#undef MLSYS_KERNEL
  // Each kernel has at least one device argument, and the CSR kernels three arrays each.
  CHECK(calls > static_cast<int>(kernel_names().size()));
}

TEST_CASE("kernel table: an entry's name list must name its parameters in order") {
  using detail::names_parameters_in_order;
  CHECK(names_parameters_in_order("(DeviceContext& ctx, const Tensor& x, const Tensor& out)", "(ctx, x, out)"));
  CHECK(names_parameters_in_order("(DeviceContext& ctx, const Csr& a, const Tensor& ev = Tensor(), float beta = 0.f)",
                                  "(ctx, a, ev, beta)"));
  CHECK(names_parameters_in_order("(DeviceContext& ctx,const Tensor&x)", "(ctx,x)"));
  // A swap of two tensors would compile and run with the roles exchanged.
  CHECK_FALSE(names_parameters_in_order("(DeviceContext& ctx, const Tensor& x, const Tensor& out)", "(ctx, out, x)"));
  CHECK_FALSE(names_parameters_in_order("(DeviceContext& ctx, const Tensor& x, const Tensor& out)", "(ctx, x)"));
  CHECK_FALSE(names_parameters_in_order("(DeviceContext& ctx, const Tensor& x)", "(ctx, x, out)"));
  CHECK_FALSE(names_parameters_in_order("(DeviceContext& ctx, const Tensor& x)", "(ctx, y)"));
  CHECK_FALSE(names_parameters_in_order("(DeviceContext& ctx, const Tensor&)", "(ctx, x)"));
  CHECK_FALSE(names_parameters_in_order("DeviceContext& ctx", "ctx"));
}
