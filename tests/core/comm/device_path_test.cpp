// The device-generic collective path, on a CPU: data on an emulated cuda device (host memory the
// emulated backend tracks; tests/core/tensor/emulated_device.hpp), codecs running through the
// device codec table, wire buffers from the device pool, and host staging decided inside core/comm
// by the communicator's capability. A checking communicator wraps inproc and fails on any pointer
// to memory it does not accept, so "staged exactly when needed" is observed, not assumed.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <memory>
#include <stdexcept>

#include "core/comm/factory.hpp"
#include "core/comm/quantized.hpp"
#include "core/comm/tensor_ops.hpp"
#include "core/quant/device_kernels.hpp"
#include "tests/core/comm/collective_cases.hpp"
#include "tests/core/tensor/emulated_device.hpp"

using namespace mlsys;

namespace {

// Forwards to `inner` and checks that every buffer it is given lies in the memory it says it
// accepts: the emulated device's when `device_memory`, host memory otherwise.
class CheckedComm final : public comm::Communicator {
 public:
  // staging: where a device-only communicator puts small host buffers (on_host_buffers), as the
  // nccl backend uses a device buffer of its own; nullptr refuses them like a backend without it.
  CheckedComm(comm::Communicator& inner, bool device_memory, DeviceContext* staging = nullptr)
      : Communicator(inner.timeout_s()), inner_(inner), device_(device_memory), staging_(staging) {}
  int rank() const override { return inner_.rank(); }
  int size() const override { return inner_.size(); }
  std::string backend() const override { return device_ ? "checked-device" : "checked-host"; }
  comm::Memory memory() const override { return device_ ? comm::Memory::cuda : comm::Memory::host; }
  int buffers_checked = 0;

 protected:
  comm::Request do_isend(const void* data, size_t bytes, int dst, int tag) override {
    check(data, bytes);
    return inner_.isend(data, bytes, dst, tag);
  }
  comm::Request do_irecv(void* data, size_t bytes, int src, int tag) override {
    check(data, bytes);
    return inner_.irecv(data, bytes, src, tag);
  }
  comm::Request do_ibroadcast(void* data, size_t bytes, int root) override {
    check(data, bytes);
    return inner_.ibroadcast(data, bytes, root);
  }
  comm::Request do_iall_reduce(void* data, size_t count, DType dtype, comm::ReduceOp op) override {
    check(data, count * dtype_size(dtype));
    return inner_.iall_reduce(data, count, dtype, op);
  }
  comm::Request do_iall_gather_v(const void* send, std::span<const size_t> recv_bytes, void* recv) override {
    check(send, recv_bytes[size_t(rank())]);
    check(recv, sum(recv_bytes));
    return inner_.iall_gather_v(send, recv_bytes, recv);
  }
  comm::Request do_igather(const void* send, size_t bytes, void* recv, int root) override {
    check(send, bytes);
    if (rank() == root) check(recv, bytes * size_t(size()));
    return inner_.igather(send, bytes, recv, root);
  }
  comm::Request do_iall_to_all_v(const void* send, std::span<const size_t> send_bytes, void* recv,
                                 std::span<const size_t> recv_bytes) override {
    check(send, sum(send_bytes));
    check(recv, sum(recv_bytes));
    return inner_.iall_to_all_v(send, send_bytes, recv, recv_bytes);
  }
  comm::Request do_ibarrier() override { return inner_.ibarrier(); }
  void on_host_buffers(const void* in, size_t in_bytes, void* out, size_t out_bytes,
                       const std::function<void(const void*, void*)>& op) override {
    if (!device_ || !staging_) return op(in, out);
    const bool in_place = in == out;
    Tensor din = Tensor::empty({int64_t(std::max<size_t>(in_bytes, 1))}, DType::u8, *staging_);
    Tensor dout = in_place ? din : Tensor::empty({int64_t(std::max<size_t>(out_bytes, 1))}, DType::u8, *staging_);
    if (in_bytes) copy_bytes(din.raw(), din.device(), in, Device::cpu(), in_bytes);
    op(din.raw(), dout.raw());
    if (out_bytes) copy_bytes(out, Device::cpu(), dout.raw(), dout.device(), out_bytes);
  }

 private:
  void check(const void* p, size_t bytes) {
    if (!bytes) return;
    ++buffers_checked;
    const bool on_device = test::EmulatedDevice::backend().device_of(p) >= 0;
    if (on_device != device_)
      throw std::runtime_error(std::string("rank ") + std::to_string(rank()) + ": " + backend() + " was handed " +
                               (on_device ? "device" : "host") + " memory");
  }
  comm::Communicator& inner_;
  bool device_;
  DeviceContext* staging_;
};

const test::CollectiveCase& find_case(const std::string& name) {
  for (const auto& tc : test::collective_cases())
    if (tc.name == name) return tc;
  throw std::runtime_error("no collective case " + name);
}

}  // namespace

TEST_CASE("comm/device path: device data is staged through the host exactly when the communicator does not take it") {
  test::EmulatedDevice emulated;
  CommOptions opts;
  opts.timeout_s = 30;
  for (bool device_memory : {false, true}) {
    CAPTURE(device_memory);
    const int n = 3;
    std::vector<std::unique_ptr<DeviceContext>> ctxs(n);
    std::vector<uint64_t> pool_allocations(n, 0);
    std::vector<int> checked(n, 0);
    test::set_data_context([&](const comm::Communicator& c) -> DeviceContext& { return *ctxs[size_t(c.rank())]; });
    CHECK_NOTHROW(comm::run_inproc(n, opts, [&](comm::Communicator& inner) {
      const size_t r = size_t(inner.rank());
      ctxs[r] = std::make_unique<DeviceContext>(Device::cuda(inner.rank() % 2));
      CheckedComm c(inner, device_memory);
      for (std::string name :
           {"tensor_all_reduce_and_broadcast", "quantized_all_to_all_matches_reference",
            "quantized_all_reduce_matches_reference"})
        find_case(name).body(c);
      pool_allocations[r] = ctxs[r]->pool().stats().allocations;
      checked[r] = c.buffers_checked;
      ctxs[r].reset();
    }));
    test::set_data_context({});
    for (int r = 0; r < n; ++r) {
      CHECK(pool_allocations[size_t(r)] > 0);  // device tensors and wire buffers came from the device pool
      CHECK(checked[size_t(r)] > 0);
    }
  }
}

TEST_CASE("comm/device path: a communicator that takes neither the data's memory nor host memory is an error") {
  test::EmulatedDevice emulated;
  CommOptions opts;
  std::string err;
  try {
    comm::run_inproc(1, opts, [&](comm::Communicator& inner) {
      CheckedComm c(inner, true);  // device memory only
      Tensor host = Tensor::zeros({4});
      comm::all_reduce(c, host);
    });
  } catch (const std::exception& e) {
    err = e.what();
  }
  CHECK(err.find("does not take memory of cpu") != std::string::npos);
}

TEST_CASE("comm/device path: a codec whose kernels do not run where the data is is refused with the fix") {
  test::EmulatedDevice emulated;
  CommOptions opts;
  std::string err;
  try {
    comm::run_inproc(1, opts, [&](comm::Communicator& c) {
      DeviceContext ctx(Device::cuda(0));
      auto host_codec = quant::make_codec("sr1");  // CPU kernels, data on the device
      Tensor x = Tensor::zeros({2, 8}, DType::f32, ctx), y = Tensor::zeros({2, 8}, DType::f32, ctx);
      std::vector<size_t> rows{2};
      comm::all_to_all_v_quantized(c, ctx, *host_codec, x, rows, y, rows, 1);
    });
  } catch (const std::exception& e) {
    err = e.what();
  }
  CHECK(err.find("quant::params_for(ctx)") != std::string::npos);
}

TEST_CASE("comm/device path: host values (counts, records, an input halo) reach a device-only communicator through the rank's device") {
  test::EmulatedDevice emulated;
  CommOptions opts;
  opts.timeout_s = 30;
  for (bool device_memory : {false, true}) {
    CAPTURE(device_memory);
    const int n = 3;
    std::vector<int> checked(n, 0);
    std::vector<std::string> errors(n);
    CHECK_NOTHROW(comm::run_inproc(n, opts, [&](comm::Communicator& inner) {
      const int me = inner.rank();
      DeviceContext ctx(Device::cuda(me % 2));
      CheckedComm c(inner, device_memory);
      int64_t v[2] = {me + 1, 10 * (me + 1)};
      comm::all_reduce_host(c, ctx, v, 2, DType::i64);
      double m = me;
      comm::all_reduce_host(c, ctx, &m, 1, DType::f64, comm::ReduceOp::max);
      // Rank r sends p + 1 values r*100 + p to rank p.
      std::vector<size_t> sc, rc;
      std::vector<float> send;
      for (int p = 0; p < n; ++p) {
        sc.push_back(size_t(p + 1));
        rc.push_back(size_t(me + 1));
        for (int i = 0; i <= p; ++i) send.push_back(float(me * 100 + p));
      }
      std::vector<float> recv(size_t(n * (me + 1)), -1.f);
      comm::all_to_all_v_host(c, ctx, std::span<const float>(send), std::span<const size_t>(sc), std::span<float>(recv),
                              std::span<const size_t>(rc));
      std::vector<float> want;
      for (int q = 0; q < n; ++q)
        for (int i = 0; i <= me; ++i) want.push_back(float(q * 100 + me));
      if (v[0] != 6 || v[1] != 60 || m != n - 1 || recv != want) errors[size_t(me)] = "wrong values";
      checked[size_t(me)] = c.buffers_checked;
    }));
    for (int r = 0; r < n; ++r) {
      CHECK(errors[size_t(r)].empty());
      CHECK(checked[size_t(r)] >= 4);  // every buffer was in memory the communicator takes
    }
  }
}

// The nccl backend's situation on a CPU: a communicator that takes device memory only. Every
// collective case must pass on it, including those that hand the communicator host values
// (exchange_counts, all_reduce_value, all_gather_value): they go through on_host_buffers. Without
// that hook (the CheckedComm without staging, as nccl was before) the host pointers reach the
// communicator and the case fails.
TEST_CASE("comm/device path: every collective case passes on a device-only communicator") {
  test::EmulatedDevice emulated;
  CommOptions opts;
  opts.timeout_s = 30;
  for (int n : {1, 3}) {
    CAPTURE(n);
    std::vector<std::unique_ptr<DeviceContext>> ctxs(static_cast<size_t>(n));
    std::vector<std::string> failed(static_cast<size_t>(n));
    test::set_data_context([&](const comm::Communicator& c) -> DeviceContext& { return *ctxs[size_t(c.rank())]; });
    CHECK_NOTHROW(comm::run_inproc(n, opts, [&](comm::Communicator& inner) {
      const size_t r = size_t(inner.rank());
      ctxs[r] = std::make_unique<DeviceContext>(Device::cuda(inner.rank() % 2));
      CheckedComm c(inner, true, ctxs[r].get());
      for (const auto& tc : test::collective_cases()) {
        try {
          tc.body(c);
        } catch (const std::exception& e) {
          failed[r] += tc.name + ": " + e.what() + "; ";
        }
      }
      ctxs[r].reset();
    }));
    test::set_data_context({});
    for (int r = 0; r < n; ++r) {
      INFO("rank " << r << ": " << failed[size_t(r)]);
      CHECK(failed[size_t(r)].empty());
    }
  }
}

TEST_CASE("comm/device path: host values handed straight to a device-only communicator are refused (what on_host_buffers prevents)") {
  test::EmulatedDevice emulated;
  CommOptions opts;
  std::string err;
  try {
    comm::run_inproc(1, opts, [&](comm::Communicator& inner) {
      CheckedComm c(inner, true);  // no staging: host buffers reach the communicator
      std::vector<size_t> counts{3};
      c.exchange_counts(counts);
    });
  } catch (const std::exception& e) {
    err = e.what();
  }
  CHECK(err.find("was handed host memory") != std::string::npos);
}
