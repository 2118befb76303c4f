#include "gnn/halo/input_halo.hpp"

#include <algorithm>
#include <cstring>

#include "core/comm/tensor_ops.hpp"
#include "core/util/error.hpp"

namespace mlsys::gnn {

namespace {

std::vector<size_t> counts(const HaloPlan& plan, bool sending, size_t per_row = 1) {
  std::vector<size_t> out;
  for (int q = 0; q < plan.parts; ++q)
    out.push_back(static_cast<size_t>(sending ? plan.sends_to(q) : plan.halo_from(q)) * per_row);
  return out;
}

}  // namespace

Tensor fetch_halo_rows(comm::Communicator& c, DeviceContext& via, const HaloPlan& plan, const Tensor& own) {
  if (own.device() != Device::cpu()) throw Error("fetch_halo_rows: the input rows must be a host tensor (assembled on the host)");
  const int64_t f = own.row_numel();
  std::vector<float> send(static_cast<size_t>(plan.total_send_rows() * f));
  size_t o = 0;
  for (int q = 0; q < plan.parts; ++q)
    for (int32_t r : plan.send_rows[q]) {
      std::memcpy(send.data() + o, own.data<float>() + static_cast<int64_t>(r) * f, static_cast<size_t>(f) * sizeof(float));
      o += static_cast<size_t>(f);
    }
  Tensor halo = Tensor::empty({plan.num_halo(), f});
  const auto sc = counts(plan, true, static_cast<size_t>(f)), rc = counts(plan, false, static_cast<size_t>(f));
  comm::all_to_all_v_host(c, via, std::span<const float>(send), std::span<const size_t>(sc),
                 std::span<float>(halo.data<float>(), static_cast<size_t>(halo.numel())), std::span<const size_t>(rc));
  return halo;
}

Csr fetch_halo_rows(comm::Communicator& c, DeviceContext& via, const HaloPlan& plan, const Csr& own) {
  if (own.device() != Device::cpu()) throw Error("fetch_halo_rows: the input rows must be a host CSR (assembled on the host)");
  const int64_t* rp = own.row_ptr.data<int64_t>();
  const int32_t* col = own.col.data<int32_t>();
  const float* val = own.values.data<float>();
  // Entries per sent row, then the rows' columns and values.
  std::vector<int64_t> nnz_send;
  std::vector<int32_t> col_send;
  std::vector<float> val_send;
  std::vector<size_t> entries_to(static_cast<size_t>(plan.parts), 0);
  for (int q = 0; q < plan.parts; ++q)
    for (int32_t r : plan.send_rows[q]) {
      nnz_send.push_back(rp[r + 1] - rp[r]);
      entries_to[q] += static_cast<size_t>(rp[r + 1] - rp[r]);
      col_send.insert(col_send.end(), col + rp[r], col + rp[r + 1]);
      val_send.insert(val_send.end(), val + rp[r], val + rp[r + 1]);
    }
  const auto sc = counts(plan, true), rc = counts(plan, false);
  std::vector<int64_t> nnz_recv(static_cast<size_t>(plan.num_halo()));
  comm::all_to_all_v_host(c, via, std::span<const int64_t>(nnz_send), std::span<const size_t>(sc), std::span<int64_t>(nnz_recv),
                 std::span<const size_t>(rc));
  std::vector<size_t> entries_from(static_cast<size_t>(plan.parts), 0);
  std::vector<int64_t> hp(static_cast<size_t>(plan.num_halo()) + 1, 0);
  for (int q = 0; q < plan.parts; ++q)
    for (int64_t i = plan.halo_offset[q]; i < plan.halo_offset[q + 1]; ++i) {
      entries_from[q] += static_cast<size_t>(nnz_recv[i]);
      hp[i + 1] = hp[i] + nnz_recv[i];
    }
  std::vector<int32_t> hc(static_cast<size_t>(hp.back()));
  std::vector<float> hv(hc.size());
  comm::all_to_all_v_host(c, via, std::span<const int32_t>(col_send), std::span<const size_t>(entries_to), std::span<int32_t>(hc),
                 std::span<const size_t>(entries_from));
  comm::all_to_all_v_host(c, via, std::span<const float>(val_send), std::span<const size_t>(entries_to), std::span<float>(hv),
                 std::span<const size_t>(entries_from));
  return Csr::from_arrays(plan.num_halo(), own.cols, std::move(hp), std::move(hc), std::move(hv));
}

Tensor stack_rows(const Tensor& a, const Tensor& b) {
  Tensor out = Tensor::empty({a.rows() + b.rows(), a.row_numel()});
  if (a.rows()) out.rows(0, a.rows()).copy_from(a);
  if (b.rows()) out.rows(a.rows(), a.rows() + b.rows()).copy_from(b);
  return out;
}

Csr stack_rows(const Csr& a, const Csr& b) {
  const int64_t na = a.rows, nb = b.rows, ea = a.nnz(), eb = b.nnz();
  std::vector<int64_t> rp(static_cast<size_t>(na + nb) + 1);
  const int64_t* ar = a.row_ptr.data<int64_t>();
  const int64_t* br = b.row_ptr.data<int64_t>();
  for (int64_t i = 0; i <= na; ++i) rp[i] = ar[i];
  for (int64_t i = 1; i <= nb; ++i) rp[na + i] = ea + br[i];
  std::vector<int32_t> col(static_cast<size_t>(ea + eb));
  std::vector<float> val(col.size());
  if (ea) {
    std::memcpy(col.data(), a.col.data<int32_t>(), static_cast<size_t>(ea) * 4);
    std::memcpy(val.data(), a.values.data<float>(), static_cast<size_t>(ea) * 4);
  }
  if (eb) {
    std::memcpy(col.data() + ea, b.col.data<int32_t>(), static_cast<size_t>(eb) * 4);
    std::memcpy(val.data() + ea, b.values.data<float>(), static_cast<size_t>(eb) * 4);
  }
  return Csr::from_arrays(na + nb, a.cols, std::move(rp), std::move(col), std::move(val));
}

}  // namespace mlsys::gnn
