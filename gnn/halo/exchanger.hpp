#pragma once
// Halo exchange for one worker: forward boundary rows to the peers that need them, backward halo
// gradients to their owners (who add them). Synchronous, or pipelined with staleness 1: the
// epoch uses what arrived during the previous epoch while this epoch's transfer runs behind the
// computation.
//
// Device-generic: send and receive buffers live in the worker's DeviceContext (its pool), the
// codec is the one that runs on that memory (quant::impl_for), and the wire bytes go to the
// communicator as they are when it takes that memory (Communicator::accepts), else through host
// staging. Encoding, transfer and decoding run on the worker's ProgressEngine thread while the
// worker computes; the worker only packs rows, posts, and later takes what arrived.
#include <map>
#include <memory>
#include <optional>

#include "core/comm/progress_engine.hpp"
#include "core/comm/quantized.hpp"
#include "core/quant/codec.hpp"
#include "core/runtime/trace_writer.hpp"
#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"
#include "gnn/halo/halo_options.hpp"
#include "gnn/halo/halo_plan.hpp"

namespace mlsys::gnn {

// What the exchanges of one epoch cost this worker (the trainer's EpochStats extends it).
struct HaloCounters {
  double quant_s = 0;  // the communication thread encoding and decoding this worker's halo blocks (overlaps compute)
  double wait_s = 0;   // measured: the worker blocked on halo data / gradients not ready yet
  uint64_t raw_bytes = 0, wire_bytes = 0;  // halo traffic sent by this worker
};

class Exchanger {
 public:
  Exchanger(comm::ProgressEngine& engine, DeviceContext& ctx, const HaloPlan& plan, uint64_t seed, const HaloOptions& o);

  // Set before each epoch. stale = use the previous epoch's halo data (pipelining).
  void begin_epoch(int epoch, bool stale, int fwd_bits, int bwd_bits, HaloCounters* stats);
  // Completes outstanding transfers (end of training, before a synchronous epoch, checkpoints).
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
  // Bytes held for error feedback (residuals of every slot and direction).
  int64_t feedback_bytes() const;

 private:
  struct Pending {
    comm::Ticket ticket;
    Tensor send, recv, sent;  // sent: decode(encode(send)) when error feedback is on
  };
  // One direction's state per slot: the transfer in flight, the data that arrived for the next
  // epoch, and what quantization lost last time (error feedback).
  struct Stream {
    const char* what;  // "fwd" | "bwd"
    std::map<int, Pending> pending;
    std::map<int, Tensor> ready;
    std::map<int, Tensor> residual;
    std::map<int, Tensor> smoothed;  // the moving average of arrivals (gnn.halo.smoothing)
  };
  // Layer `slot`'s transfer of `send` this epoch. Synchronous: waits and returns what arrived.
  // Stale: posts it, takes the previous epoch's (which has had a whole epoch to arrive) and
  // returns that.
  Tensor transfer(Stream& s, int slot, int bits, Tensor send, const std::vector<size_t>& send_rows,
                  const std::vector<size_t>& recv_rows, uint64_t seed);
  Pending post(Stream& s, int slot, int bits, Tensor send, const std::vector<size_t>& send_rows,
               const std::vector<size_t>& recv_rows, uint64_t seed);
  // Waits for the transfer, counts it, keeps its residual; returns what arrived.
  Tensor take(Stream& s, int slot, Pending& p);
  void drain(Stream& s);
  // What a stale epoch uses of `arrived`: itself, or the moving average it updates.
  Tensor smooth(Stream& s, int slot, const Tensor& arrived);
  Tensor pack_send(const Tensor& p_own);
  const quant::Codec& codec(int bits);
  double now_us() const;

  comm::ProgressEngine& engine_;
  DeviceContext& ctx_;
  const HaloPlan& plan_;
  uint64_t seed_;
  HaloOptions o_;
  std::vector<size_t> send_rows_, recv_rows_;
  Tensor send_index_;  // concatenated plan.send_rows (i32), peer order
  std::map<int, std::unique_ptr<quant::Codec>> codecs_;
  Stream fwd_{"fwd", {}, {}, {}, {}}, bwd_{"bwd", {}, {}, {}, {}};  // halo rows forward, their gradients backward
  int epoch_ = 0, fwd_bits_ = 32, bwd_bits_ = 32;
  bool stale_ = false;
  HaloCounters* stats_ = nullptr;
  TraceWriter* trace_ = nullptr;
  double trace_t0_ = 0;
};

}  // namespace mlsys::gnn
