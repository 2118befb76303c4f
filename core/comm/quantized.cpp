#include "core/comm/quantized.hpp"

#include <memory>

#include "core/quant/rng.hpp"
#include "core/util/error.hpp"

namespace mlsys::comm {

uint64_t block_seed(uint64_t seed, int src, int dst) {
  return quant::splitmix64(seed ^ quant::splitmix64((uint64_t(uint32_t(src)) << 32) | uint32_t(dst)));
}

namespace {

// The codec runs where the data is: a host codec on host memory, the CUDA codec on device memory.
void check_memory(Communicator& comm, const quant::Codec& codec, const Device& data, const char* op) {
  if (codec.impl() != quant::impl_for(data))
    throw Error(std::string(op) + ": the data is in " + data.str() + " memory but the codec runs with impl '" +
                quant::to_string(codec.impl()) + "'; make the codec with quant::impl_for(device)");
  // Staging goes through host memory; data already there has nowhere else to go.
  if (data.is_cpu() && !comm.accepts(data))
    throw Error(std::string(op) + ": backend '" + comm.backend() + "' takes no host memory; put the data on the device");
}

// One destination block as the codec sees it: runs of `range_values` values (a full part and a
// shorter tail), or rows of `cols`.
struct Cut {
  size_t rows, cols, tail;  // rows x cols, then one row of `tail` values (0 = none)
};
Cut cut(size_t rows, size_t cols, size_t range_values) {
  if (range_values == 0 || range_values >= rows * cols) return {rows, cols, 0};
  const size_t n = rows * cols;
  return {n / range_values, range_values, n % range_values};
}

void encode_block(const quant::Codec& c, const float* x, size_t rows, size_t cols, size_t rv, uint64_t seed, uint8_t* out) {
  const Cut k = cut(rows, cols, rv);
  c.encode(x, k.rows, k.cols, seed, out);
  if (k.tail) c.encode(x + k.rows * k.cols, 1, k.tail, seed + 1, out + c.wire_bytes(k.rows, k.cols));
}

void decode_block(const quant::Codec& c, const uint8_t* in, size_t rows, size_t cols, size_t rv, float* y) {
  const Cut k = cut(rows, cols, rv);
  c.decode(in, k.rows, k.cols, y);
  if (k.tail) c.decode(in + c.wire_bytes(k.rows, k.cols), 1, k.tail, y + k.rows * k.cols);
}

// Wire buffers in the data's memory (its pool); a host copy for a communicator that cannot take
// that memory.
struct Wire {
  Tensor send, recv;            // in the data's memory
  Tensor host_send, host_recv;  // staging (defined only when staging)
  uint8_t* data(Tensor& t) { return t.numel() ? t.data<uint8_t>() : nullptr; }
};

}  // namespace

size_t block_wire_bytes(const quant::Codec& codec, size_t rows, size_t cols, size_t range_values) {
  const Cut k = cut(rows, cols, range_values);
  return codec.wire_bytes(k.rows, k.cols) + (k.tail ? codec.wire_bytes(1, k.tail) : 0);
}

QuantizedRequest iall_to_all_v_quantized(Communicator& comm, const quant::Codec& codec, const float* send,
                                         std::span<const size_t> send_rows, float* recv,
                                         std::span<const size_t> recv_rows, size_t cols, uint64_t seed,
                                         const QuantizedOptions& o) {
  DeviceContext& ctx = o.ctx ? *o.ctx : cpu_context();
  const Device dev = ctx.device();
  check_memory(comm, codec, dev, "all_to_all_v_quantized");
  const size_t n = size_t(comm.size()), me = size_t(comm.rank());
  if (send_rows.size() != n || recv_rows.size() != n)
    throw Error("all_to_all_v_quantized: send_rows and recv_rows need one entry per rank (" + std::to_string(n) + ")");
  std::vector<size_t> sbytes(n), rbytes(n);
  size_t stotal = 0, rtotal = 0;
  for (size_t p = 0; p < n; ++p) {
    sbytes[p] = block_wire_bytes(codec, send_rows[p], cols, o.range_values);
    rbytes[p] = block_wire_bytes(codec, recv_rows[p], cols, o.range_values);
    stotal += sbytes[p];
    rtotal += rbytes[p];
  }
  const bool staging = !comm.accepts(dev);
  auto w = std::make_shared<Wire>();
  w->send = Tensor::empty({int64_t(stotal)}, DType::u8, ctx);
  w->recv = Tensor::empty({int64_t(rtotal)}, DType::u8, ctx);
  QuantizedRequest out;
  size_t row = 0, off = 0;
  for (size_t p = 0; p < n; ++p) {
    encode_block(codec, send + row * cols, send_rows[p], cols, o.range_values, block_seed(seed, int(me), int(p)),
                 w->data(w->send) + off);
    if (o.sent) decode_block(codec, w->data(w->send) + off, send_rows[p], cols, o.range_values, o.sent + row * cols);
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
  ctx.synchronize();  // the codec's kernels are done before the communicator reads the wire
  Tensor* ws = &w->send;
  Tensor* wr = &w->recv;
  if (staging) {
    w->host_send = w->send.to(cpu_context());
    w->host_recv = Tensor::empty({int64_t(rtotal)}, DType::u8, cpu_context());
    ws = &w->host_send;
    wr = &w->host_recv;
  }
  out.request = comm.iall_to_all_v(w->data(*ws), sbytes, w->data(*wr), rbytes);
  std::vector<size_t> rrows(recv_rows.begin(), recv_rows.end());
  const quant::Codec* c = &codec;
  const size_t rv = o.range_values;
  out.request.then([w, staging, rrows, rbytes, recv, cols, rv, c, &ctx] {
    if (staging) w->recv.copy_from(w->host_recv);
    size_t row = 0, off = 0;
    for (size_t p = 0; p < rrows.size(); ++p) {
      decode_block(*c, w->data(w->recv) + off, rrows[p], cols, rv, recv + row * cols);
      row += rrows[p];
      off += rbytes[p];
    }
    ctx.synchronize();
  });
  return out;
}

WireVolume all_to_all_v_quantized(Communicator& comm, const quant::Codec& codec, const float* send,
                                  std::span<const size_t> send_rows, float* recv, std::span<const size_t> recv_rows,
                                  size_t cols, uint64_t seed, const QuantizedOptions& options) {
  auto r = iall_to_all_v_quantized(comm, codec, send, send_rows, recv, recv_rows, cols, seed, options);
  r.wait();
  return r.volume;
}

QuantizedRequest iall_reduce_quantized(Communicator& comm, const quant::Codec& codec, float* data, size_t count,
                                       uint64_t seed, size_t row_len) {
  check_memory(comm, codec, Device::cpu(), "all_reduce_quantized");
  if (comm.memory() != Memory::host)
    throw Error("all_reduce_quantized runs on host buffers only; on '" + comm.backend() +
                "' use the fp32 all_reduce (NCCL reduces on the GPU) or copy the gradients to the host");
  if (row_len == 0) throw Error("all_reduce_quantized: row_len must be > 0");
  const size_t n = size_t(comm.size()), me = size_t(comm.rank());
  const size_t full = count / row_len, tail = count % row_len;
  const size_t main_bytes = codec.wire_bytes(full, row_len);
  const size_t blob = main_bytes + (tail ? codec.wire_bytes(1, tail) : 0);
  struct Bytes {
    std::vector<uint8_t> send, recv;
  };
  auto st = std::make_shared<Bytes>();
  st->send.resize(blob);
  st->recv.resize(blob * n);
  const uint64_t s = block_seed(seed, int(me), -1);
  codec.encode(data, full, row_len, s, st->send.data());
  if (tail) codec.encode(data + full * row_len, 1, tail, s + 1, st->send.data() + main_bytes);
  QuantizedRequest out;
  out.volume.raw_bytes = count * sizeof(float) * (n - 1);
  out.volume.wire_bytes = blob * (n - 1);
  CommStats d;
  d.raw_bytes = out.volume.raw_bytes;
  d.wire_bytes = out.volume.wire_bytes;
  comm.add_stats(d);
  out.request = comm.iall_gather(st->send.data(), blob, st->recv.data());
  const quant::Codec* c = &codec;
  out.request.then([st, n, blob, main_bytes, full, tail, row_len, count, data, c] {
    std::vector<float> tmp(count);
    for (size_t p = 0; p < n; ++p) {
      const uint8_t* b = st->recv.data() + p * blob;
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
