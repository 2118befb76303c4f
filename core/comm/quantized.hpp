#pragma once
// Quantized collectives: the caller picks a codec (usually quant::unbiased_codec(bits)); rows of
// `cols` floats are encoded per destination block, exchanged as bytes and decoded. Each call
// returns the volume it moved (raw fp32 bytes vs bytes on the wire, metadata included) and adds
// the same numbers to Communicator::stats().raw_bytes / wire_bytes.
//
// Device-generic (the tensor overloads): the data stays where it is (host, or a GPU through ctx):
// the codec runs there (make it with quant::params_for(ctx)), the wire buffers come from ctx's
// pool, and the wire bytes go to the communicator directly when it accepts that memory
// (Communicator::accepts; nccl on the GPU), else through host staging of the encoded bytes only
// (inproc, MPI without CUDA awareness). The same code runs on the host and on a GPU.
//
// Random stream: the block that rank `src` sends to rank `dst` is encoded with
// block_seed(seed, src, dst), its rows numbered from 0, so a test can reproduce any block with the
// reference codec. Pass a different `seed` per call (e.g. hash of epoch, layer) for fresh noise.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/comm/communicator.hpp"
#include "core/quant/codec.hpp"
#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"

namespace mlsys::comm {

// Where the data of a quantized exchange lives and how it is cut into ranges.
struct QuantizedOptions {
  // The context of the send/recv memory (its device and pool); nullptr = host memory. The codec
  // must run there (quant::impl_for(device)). The wire buffers come from its pool and go to the
  // communicator as they are when it takes that memory (Communicator::accepts), else through host
  // staging of the wire bytes (which are up to 32x smaller than the values).
  DeviceContext* ctx = nullptr;
  // Values per quantization range: a destination block of R x cols values is encoded as runs of
  // this many consecutive values (the last run shorter), each with its own min and scale. 0 = one
  // range per row.
  size_t range_values = 0;
  // If set (same memory as send): receives decode(encode(send)) of every block this rank sends, as
  // the peers will see it (error feedback keeps send - sent).
  float* sent = nullptr;
};

// Wire bytes of one destination block of rows x cols values.
size_t block_wire_bytes(const quant::Codec& codec, size_t rows, size_t cols, size_t range_values);

struct WireVolume {
  uint64_t raw_bytes = 0;   // fp32 bytes this rank would have sent
  uint64_t wire_bytes = 0;  // encoded bytes this rank sent (metadata included)
  double ratio() const { return wire_bytes ? double(raw_bytes) / double(wire_bytes) : 0.0; }
};

struct QuantizedRequest {
  Request request;    // wait() receives and decodes into the caller's output
  WireVolume volume;  // known at start
  void wait() { request.wait(); }
};

uint64_t block_seed(uint64_t seed, int src, int dst);

// send: at least sum(send_rows) rows of `cols` f32 on ctx's device, grouped by destination rank in
// rank order; recv: at least sum(recv_rows) rows, grouped by source rank. Blocks to/from self are
// copied through the codec too (so every row sees the same quantization). The codec must run on
// ctx's device (quant::runs_on); encoding happens now, decoding in wait().
// options.range_values and options.sent apply (options.ctx is `ctx` here).
QuantizedRequest iall_to_all_v_quantized(Communicator& comm, DeviceContext& ctx, const quant::Codec& codec,
                                         const Tensor& send, std::span<const size_t> send_rows, const Tensor& recv,
                                         std::span<const size_t> recv_rows, uint64_t seed,
                                         const QuantizedOptions& options = {});
WireVolume all_to_all_v_quantized(Communicator& comm, DeviceContext& ctx, const quant::Codec& codec, const Tensor& send,
                                  std::span<const size_t> send_rows, const Tensor& recv,
                                  std::span<const size_t> recv_rows, uint64_t seed, const QuantizedOptions& options = {});
// data (f32, any shape, ctx's device) = sum over ranks of decode(encode(data_r)), cut into rows of
// `row_len` values (the last may be shorter); identical bits on every rank (summed in rank order).
QuantizedRequest iall_reduce_quantized(Communicator& comm, DeviceContext& ctx, const quant::Codec& codec,
                                       const Tensor& data, uint64_t seed, size_t row_len = 128);
WireVolume all_reduce_quantized(Communicator& comm, DeviceContext& ctx, const quant::Codec& codec, const Tensor& data,
                                uint64_t seed, size_t row_len = 128);

// Raw pointers (the same operations): host memory with a CPU codec; device memory with a codec
// made with Impl::cuda (its device is options.ctx's, else found from the pointer).
WireVolume all_to_all_v_quantized(Communicator& comm, const quant::Codec& codec, const float* send,
                                  std::span<const size_t> send_rows, float* recv, std::span<const size_t> recv_rows,
                                  size_t cols, uint64_t seed, const QuantizedOptions& options = {});
// Asynchronous: encodes now (on the calling thread), exchanges in the background, decodes in wait()
// (on the thread that waits, e.g. a ProgressEngine's).
QuantizedRequest iall_to_all_v_quantized(Communicator& comm, const quant::Codec& codec, const float* send,
                                         std::span<const size_t> send_rows, float* recv,
                                         std::span<const size_t> recv_rows, size_t cols, uint64_t seed,
                                         const QuantizedOptions& options = {});

WireVolume all_reduce_quantized(Communicator& comm, const quant::Codec& codec, float* data, size_t count, uint64_t seed,
                                size_t row_len = 128);
QuantizedRequest iall_reduce_quantized(Communicator& comm, const quant::Codec& codec, float* data, size_t count,
                                       uint64_t seed, size_t row_len = 128);

}  // namespace mlsys::comm
