// The trainer's device-generic path on a CPU: every worker's tensors on an emulated cuda device
// (host memory the emulated backend tracks, CPU kernels, the device codec table;
// tests/core/tensor/emulated_device.hpp), so training runs what it runs on a GPU: inputs uploaded,
// keyed dropout through the kernel dispatch, halo buffers from the device pool, codecs on device
// memory, and host staging decided by the communicator's capability (inproc takes host memory only).
// The loss curve must be the CPU run's: nothing in gnn/ may depend on which device it runs on.
#include <doctest/doctest.h>

#include "gnn/model/architecture.hpp"
#include "tests/core/tensor/emulated_device.hpp"
#include "tests/gnn/gnn_test_util.hpp"

using namespace mlsys;
using namespace mlsys::gnn;
using namespace mlsys::gnn::gnntest;

TEST_CASE("training on an emulated device gives the CPU run's loss curve, through the device-generic path") {
  Graph g = generate_sbm(small_sbm(400), 5);
  const auto owner = parts_of(g, 2);
  for (const std::string& arch : architecture_registry().names()) {
    for (int bits : {32, 2}) {
      CAPTURE(arch);
      CAPTURE(bits);
      TrainSetup s = arch_setup(2, 4, arch);
      s.gnn.fwd_bits = bits;
      s.gnn.bwd_bits = bits;
      const TrainResult cpu = train(g, owner, s);
      test::EmulatedDevice device;
      s.device.type = "cuda";
      const TrainResult dev = train(g, owner, s);
      const auto a = losses(cpu), b = losses(dev);
      REQUIRE(a.size() == 4);
      CHECK(a == b);
      // The device path ran: inputs went up, and inproc (host memory only) got staged halo and
      // gradient buffers back down.
      CHECK(test::EmulatedDevice::backend().host_to_device > 0);
      CHECK(test::EmulatedDevice::backend().device_to_host > 0);
    }
  }
}
