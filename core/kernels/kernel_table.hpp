#pragma once
// The kernel tables' side for the backends (KernelTable itself is in kernels.hpp, which the
// dispatchers need). A backend fills its table from kernels.inc, so it names no kernel:
//
//   #define MLSYS_KERNEL(ret, name, params, args) table.name = &cuda::name;
//   #include "core/kernels/kernels.inc"
//   #undef MLSYS_KERNEL
//
// A slot's type is its kernel's signature and the backend's declaration comes from the same entry,
// so a kernel whose implementation is missing or has another signature fails to link (-z defs: the
// library itself, naming the function). The CPU table is part of the core library; the CUDA table is
// filled by libmlsys_cuda.so.
#include <string_view>

#include "core/kernels/kernels.hpp"

namespace mlsys::kernels {

const KernelTable& cpu_kernel_table();

namespace detail {

// Whether `args` ("(ctx, a, b)") names the parameters of `params` ("(DeviceContext& ctx, const
// Tensor& a, float b = 1.f)") in order: the dispatchers forward `args`, so kernels.inc's two lists
// of an entry must agree, and a swap of two parameters of one type would still compile. Checked
// with static_assert for every kernel in kernel_table.cpp.
constexpr bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
// The next comma-separated item of `list` (from `pos`, outside brackets), trimmed; advances pos.
constexpr std::string_view next_item(std::string_view list, size_t& pos) {
  int depth = 0;
  size_t begin = pos;
  for (; pos < list.size(); ++pos) {
    const char c = list[pos];
    if (c == '(' || c == '[' || c == '{' || c == '<') ++depth;
    if (c == ')' || c == ']' || c == '}' || c == '>') --depth;
    if (c == ',' && depth == 0) break;
  }
  std::string_view item = list.substr(begin, pos - begin);
  if (pos < list.size()) ++pos;  // past the comma
  while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
  while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
  return item;
}
// The name a parameter declares: the last identifier before its default ("const Tensor& a = Tensor()" -> "a").
constexpr std::string_view parameter_name(std::string_view param) {
  param = param.substr(0, param.find('='));
  while (!param.empty() && !is_identifier_char(param.back())) param.remove_suffix(1);
  size_t begin = param.size();
  while (begin > 0 && is_identifier_char(param[begin - 1])) --begin;
  return param.substr(begin);
}
constexpr bool names_parameters_in_order(std::string_view params, std::string_view args) {
  if (params.size() < 2 || args.size() < 2 || params.front() != '(' || args.front() != '(' || params.back() != ')' ||
      args.back() != ')')
    return false;
  params = params.substr(1, params.size() - 2);
  args = args.substr(1, args.size() - 2);
  size_t p = 0, a = 0;
  while (p < params.size() || a < args.size()) {
    if (p >= params.size() || a >= args.size()) return false;  // one list is longer
    const std::string_view name = parameter_name(next_item(params, p));
    if (name.empty() || name != next_item(args, a)) return false;
  }
  return true;
}

}  // namespace detail

}  // namespace mlsys::kernels
