#pragma once
// Halo exchange for one worker: forward boundary rows to the peers that need them, backward halo
// gradients to their owners (who add them). Synchronous, or pipelined with staleness 1: the
// epoch uses what arrived during the previous epoch while this epoch's transfer runs behind the
// computation. Low-bit transfers go through the core codecs (quantized all-to-all).
#include <map>
#include <memory>
#include <optional>

#include "core/comm/communicator.hpp"
#include "core/comm/quantized.hpp"
#include "core/quant/codec.hpp"
#include "core/runtime/trace_writer.hpp"
#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"
#include "gnn/halo/halo_plan.hpp"

namespace mlsys::gnn {

// What the exchanges of one epoch cost this worker (the trainer's EpochStats extends it).
struct HaloCounters {
  double quant_s = 0;  // encoding halo blocks (starting an exchange), receiving and decoding arrived ones
  double wait_s = 0;   // measured: blocked on halo data / gradients that had not arrived yet
  uint64_t raw_bytes = 0, wire_bytes = 0;  // halo traffic sent by this worker
};

class Exchanger {
 public:
  Exchanger(comm::Communicator& comm, DeviceContext& ctx, const HaloPlan& plan, uint64_t seed);

  // Set before each epoch. stale = use the previous epoch's halo data (pipelining).
  void begin_epoch(int epoch, bool stale, int fwd_bits, int bwd_bits, HaloCounters* stats);
  // Drains outstanding transfers (end of training, before a synchronous epoch, checkpoints).
  void drain();

  // p_own: [owned, F]. Returns [owned + halo, F] (owned rows copied, halo rows from peers).
  Tensor forward(int slot, const Tensor& p_own);
  // Adds the halo rows of grad_ext ([owned + halo, F]) into their owners' rows; returns the
  // owned part with every peer's contribution added.
  Tensor backward(int slot, const Tensor& grad_ext);
  // Plain fp32 forward exchange used for evaluation (no staleness, not counted in epoch stats).
  Tensor forward_exact(const Tensor& p_own);

  void set_trace(TraceWriter* t, double t0_us) {
    trace_ = t;
    trace_t0_ = t0_us;
  }

 private:
  struct Pending {
    comm::QuantizedRequest req;
    Tensor buffer;
  };
  // One direction's stale state per slot: the transfer posted this epoch, and the data that
  // arrived for the next one.
  struct Stream {
    const char* what;  // "fwd" | "bwd"
    std::map<int, Pending> pending;
    std::map<int, Tensor> ready;
  };
  // Layer `slot`'s transfer of this epoch into `buf` (host). Synchronous: waits and returns buf.
  // Stale: posts it, waits for the previous epoch's (which has had a whole epoch to arrive) and
  // returns that.
  Tensor transfer(Stream& s, int slot, const quant::Codec& codec, const float* send, std::span<const size_t> send_rows,
                  const Tensor& buf, std::span<const size_t> recv_rows, int64_t cols, uint64_t seed);
  void drain(Stream& s);
  Tensor pack_send(const Tensor& p_own);
  comm::QuantizedRequest start(const quant::Codec& codec, const float* send, std::span<const size_t> send_rows,
                               float* recv, std::span<const size_t> recv_rows, size_t cols, uint64_t seed);
  void wait(comm::QuantizedRequest& r, const char* what);
  const quant::Codec& codec(int bits);
  double now_us() const;

  comm::Communicator& comm_;
  DeviceContext& ctx_;
  const HaloPlan& plan_;
  uint64_t seed_;
  std::vector<size_t> send_rows_, recv_rows_;
  Tensor send_index_;  // concatenated plan.send_rows (i32), peer order
  std::map<int, std::unique_ptr<quant::Codec>> codecs_;
  Stream fwd_{"fwd", {}, {}}, bwd_{"bwd", {}, {}};  // halo rows forward, their gradients backward
  int epoch_ = 0, fwd_bits_ = 32, bwd_bits_ = 32;
  bool stale_ = false;
  HaloCounters* stats_ = nullptr;
  TraceWriter* trace_ = nullptr;
  double trace_t0_ = 0;
};

}  // namespace mlsys::gnn
