#include "core/comm/quantized.hpp"

#include <memory>

#include "core/quant/rng.hpp"
#include "core/util/error.hpp"
#ifdef MLSYS_WITH_CUDA
#include <cuda_runtime_api.h>
#endif

namespace mlsys::comm {

uint64_t block_seed(uint64_t seed, int src, int dst) {
  return quant::splitmix64(seed ^ quant::splitmix64((uint64_t(uint32_t(src)) << 32) | uint32_t(dst)));
}

namespace {

// Host communicators need a CPU codec; device communicators (nccl) a CUDA codec.
void check_memory(Communicator& comm, const quant::Codec& codec, const char* op) {
  bool device = comm.memory() == Memory::cuda, cuda_codec = codec.impl() == quant::Impl::cuda;
  if (device != cuda_codec)
    throw Error(std::string(op) + ": backend '" + comm.backend() + "' uses " + (device ? "device" : "host") +
                " buffers but the codec runs with impl '" + quant::to_string(codec.impl()) + "'; make the codec with " +
                (device ? "CodecParams::impl = Impl::cuda" : "a CPU impl (fast or reference)"));
}

// Wire buffers, on the host or (for device communicators) in CUDA memory.
struct Staging {
  bool device = false;
  std::vector<uint8_t> host_send, host_recv;
  uint8_t* send = nullptr;
  uint8_t* recv = nullptr;
  Staging(bool on_device, size_t send_bytes, size_t recv_bytes) : device(on_device) {
    if (!device) {
      host_send.resize(send_bytes);
      host_recv.resize(recv_bytes);
      send = host_send.data();
      recv = host_recv.data();
      return;
    }
#ifdef MLSYS_WITH_CUDA
    if (cudaMalloc(reinterpret_cast<void**>(&send), std::max<size_t>(send_bytes, 1)) != cudaSuccess ||
        cudaMalloc(reinterpret_cast<void**>(&recv), std::max<size_t>(recv_bytes, 1)) != cudaSuccess)
      throw Error("quantized collective: cudaMalloc of the wire buffers failed (" +
                  std::to_string(send_bytes + recv_bytes) + " bytes)");
#endif
  }
  ~Staging() {
#ifdef MLSYS_WITH_CUDA
    if (device) {
      cudaFree(send);
      cudaFree(recv);
    }
#endif
  }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;
  // The codec's kernels must be done before the communicator reads the wire buffer.
  void encoded(const quant::Codec& codec) const {
#ifdef MLSYS_WITH_CUDA
    if (device) cudaDeviceSynchronize();
#endif
    (void)codec;
  }
};

}  // namespace

QuantizedRequest iall_to_all_v_quantized(Communicator& comm, const quant::Codec& codec, const float* send,
                                         std::span<const size_t> send_rows, float* recv,
                                         std::span<const size_t> recv_rows, size_t cols, uint64_t seed) {
  check_memory(comm, codec, "all_to_all_v_quantized");
  const size_t n = size_t(comm.size()), me = size_t(comm.rank());
  if (send_rows.size() != n || recv_rows.size() != n)
    throw Error("all_to_all_v_quantized: send_rows and recv_rows need one entry per rank (" + std::to_string(n) + ")");
  std::vector<size_t> sbytes(n), rbytes(n);
  size_t stotal = 0, rtotal = 0;
  for (size_t p = 0; p < n; ++p) {
    sbytes[p] = codec.wire_bytes(send_rows[p], cols);
    rbytes[p] = codec.wire_bytes(recv_rows[p], cols);
    stotal += sbytes[p];
    rtotal += rbytes[p];
  }
  auto st = std::make_shared<Staging>(comm.memory() == Memory::cuda, stotal, rtotal);
  QuantizedRequest out;
  size_t row = 0, off = 0;
  for (size_t p = 0; p < n; ++p) {
    codec.encode(send + row * cols, send_rows[p], cols, block_seed(seed, int(me), int(p)), st->send + off);
    if (p != me) {
      out.volume.raw_bytes += send_rows[p] * cols * sizeof(float);
      out.volume.wire_bytes += sbytes[p];
    }
    row += send_rows[p];
    off += sbytes[p];
  }
  CommStats d;
  d.raw_bytes = out.volume.raw_bytes;
  d.wire_bytes = out.volume.wire_bytes;
  comm.add_stats(d);
  st->encoded(codec);
  out.request = comm.iall_to_all_v(st->send, sbytes, st->recv, rbytes);
  std::vector<size_t> rrows(recv_rows.begin(), recv_rows.end());
  const quant::Codec* c = &codec;
  out.request.then([st, rrows, rbytes, recv, cols, c] {
    size_t row = 0, off = 0;
    for (size_t p = 0; p < rrows.size(); ++p) {
      c->decode(st->recv + off, rrows[p], cols, recv + row * cols);
      row += rrows[p];
      off += rbytes[p];
    }
  });
  return out;
}

WireVolume all_to_all_v_quantized(Communicator& comm, const quant::Codec& codec, const float* send,
                                  std::span<const size_t> send_rows, float* recv, std::span<const size_t> recv_rows,
                                  size_t cols, uint64_t seed) {
  auto r = iall_to_all_v_quantized(comm, codec, send, send_rows, recv, recv_rows, cols, seed);
  r.wait();
  return r.volume;
}

QuantizedRequest iall_reduce_quantized(Communicator& comm, const quant::Codec& codec, float* data, size_t count,
                                       uint64_t seed, size_t row_len) {
  check_memory(comm, codec, "all_reduce_quantized");
  if (comm.memory() != Memory::host)
    throw Error("all_reduce_quantized runs on host buffers only; on '" + comm.backend() +
                "' use the fp32 all_reduce (NCCL reduces on the GPU) or copy the gradients to the host");
  if (row_len == 0) throw Error("all_reduce_quantized: row_len must be > 0");
  const size_t n = size_t(comm.size()), me = size_t(comm.rank());
  const size_t full = count / row_len, tail = count % row_len;
  const size_t main_bytes = codec.wire_bytes(full, row_len);
  const size_t blob = main_bytes + (tail ? codec.wire_bytes(1, tail) : 0);
  auto st = std::make_shared<Staging>(false, blob, blob * n);
  const uint64_t s = block_seed(seed, int(me), -1);
  codec.encode(data, full, row_len, s, st->send);
  if (tail) codec.encode(data + full * row_len, 1, tail, s + 1, st->send + main_bytes);
  QuantizedRequest out;
  out.volume.raw_bytes = count * sizeof(float) * (n - 1);
  out.volume.wire_bytes = blob * (n - 1);
  CommStats d;
  d.raw_bytes = out.volume.raw_bytes;
  d.wire_bytes = out.volume.wire_bytes;
  comm.add_stats(d);
  out.request = comm.iall_gather(st->send, blob, st->recv);
  const quant::Codec* c = &codec;
  out.request.then([st, n, blob, main_bytes, full, tail, row_len, count, data, c] {
    std::vector<float> tmp(count);
    for (size_t p = 0; p < n; ++p) {
      const uint8_t* b = st->recv + p * blob;
      c->decode(b, full, row_len, tmp.data());
      if (tail) c->decode(b + main_bytes, 1, tail, tmp.data() + full * row_len);
      if (p == 0) {
        for (size_t i = 0; i < count; ++i) data[i] = tmp[i];
      } else {
        for (size_t i = 0; i < count; ++i) data[i] += tmp[i];
      }
    }
  });
  return out;
}

WireVolume all_reduce_quantized(Communicator& comm, const quant::Codec& codec, float* data, size_t count, uint64_t seed,
                                size_t row_len) {
  auto r = iall_reduce_quantized(comm, codec, data, count, seed, row_len);
  r.wait();
  return r.volume;
}

}  // namespace mlsys::comm
