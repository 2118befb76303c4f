#include "core/comm/quantized.hpp"

#include <algorithm>
#include <memory>

#include "core/comm/tensor_ops.hpp"
#include "core/kernels/kernels.hpp"
#include "core/quant/device_kernels.hpp"
#include "core/quant/rng.hpp"
#include "core/util/error.hpp"
#include "core/util/splitmix64.hpp"

namespace mlsys::comm {

uint64_t block_seed(uint64_t seed, int src, int dst) {
  return splitmix64_mix(seed ^ splitmix64_mix((uint64_t(uint32_t(src)) << 32) | uint32_t(dst)));
}

namespace {

void check_codec(const quant::Codec& codec, const DeviceContext& ctx, const char* op) {
  if (!quant::runs_on(codec, ctx.device()))
    throw Error(std::string(op) + ": the data is on " + ctx.device().str() + " but codec '" + codec.name() +
                "' runs with impl '" + quant::to_string(codec.impl()) +
                "'; make the codec with quant::params_for(ctx) so its kernels run where the data is");
}

// The wire bytes of one collective. They are encoded and decoded in ctx's memory; the
// communicator gets that memory when it accepts it, else host copies of the encoded bytes (so
// only compressed data crosses between device and host). With a passthrough codec (fp32) the
// wire is the data: the communicator reads the source rows and writes the destination rows
// (`send_as_is`, `recv_as_is`), which saves an encode and a decode pass per byte. Host buffers
// are not zero-filled: every byte is written before it is read.
class Wire {
 public:
  Wire(Communicator& comm, DeviceContext& ctx, size_t send_bytes, size_t recv_bytes, const char* op,
       const void* send_as_is = nullptr, void* recv_as_is = nullptr)
      : ctx_(ctx),
        on_host_(ctx.device().is_cpu()),
        staged_(needs_host_staging(comm, ctx.device(), op)),
        send_as_is_(send_as_is),
        recv_as_is_(recv_as_is),
        send_bytes_(send_bytes),
        recv_bytes_(recv_bytes) {
    const bool host_send = on_host_ ? !send_as_is : staged_;
    const bool host_recv = on_host_ ? !recv_as_is : staged_;
    if (host_send) host_send_ = std::make_unique_for_overwrite<uint8_t[]>(std::max<size_t>(1, send_bytes));
    if (host_recv) host_recv_ = std::make_unique_for_overwrite<uint8_t[]>(std::max<size_t>(1, recv_bytes));
    if (on_host_) return;
    if (!send_as_is) dev_send_ = Tensor::empty({int64_t(send_bytes)}, DType::u8, ctx);
    if (!recv_as_is) dev_recv_ = Tensor::empty({int64_t(recv_bytes)}, DType::u8, ctx);
  }
  // Where the codec writes and reads (ctx's memory); not used for the as-is sides.
  uint8_t* encode_out() { return on_host_ ? host_send_.get() : static_cast<uint8_t*>(dev_send_.raw()); }
  const uint8_t* decode_in() { return on_host_ ? host_recv_.get() : static_cast<const uint8_t*>(dev_recv_.raw()); }
  // What the communicator sends from and receives into; call after encoding.
  const void* comm_send() {
    const void* bytes = send_as_is_ ? send_as_is_ : (on_host_ ? host_send_.get() : dev_send_.raw());
    if (on_host_ || !staged_) return bytes;
    copy_bytes(host_send_.get(), Device::cpu(), bytes, ctx_.device(), send_bytes_);
    return host_send_.get();
  }
  void* comm_recv() {
    if (on_host_) return recv_as_is_ ? recv_as_is_ : host_recv_.get();
    return staged_ ? host_recv_.get() : (recv_as_is_ ? recv_as_is_ : dev_recv_.raw());
  }
  // After the communicator finished: staged bytes go back to ctx's memory (for decoding, or the
  // destination rows themselves).
  void received() {
    if (!on_host_ && staged_)
      copy_bytes(recv_as_is_ ? recv_as_is_ : dev_recv_.raw(), ctx_.device(), host_recv_.get(), Device::cpu(), recv_bytes_);
  }
  // Decoding scratch in ctx's memory (host: a plain vector, like the wire buffers).
  Tensor scratch_floats(size_t count) const {
    if (on_host_) return Tensor::from_vector(std::vector<float>(count));
    return Tensor::empty({int64_t(count)}, DType::f32, ctx_);
  }

 private:
  DeviceContext& ctx_;
  bool on_host_, staged_;
  const void* send_as_is_;
  void* recv_as_is_;
  size_t send_bytes_, recv_bytes_;
  std::unique_ptr<uint8_t[]> host_send_, host_recv_;
  Tensor dev_send_, dev_recv_;
};

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

void add_volume(Communicator& comm, const WireVolume& v) {
  CommStats d;
  d.raw_bytes = v.raw_bytes;
  d.wire_bytes = v.wire_bytes;
  comm.add_stats(d);
}

float* rows_ptr(const Tensor& t) { return t.numel() ? t.data<float>() : nullptr; }

// The device context a raw device pointer lives on (Impl::cuda codecs), or the host's.
DeviceContext& context_of(const quant::Codec& codec, const void* p) {
  if (codec.impl() != quant::Impl::cuda) return cpu_context();
  int d = device_backend(Device::Kind::cuda).device_of(p);
  if (d < 0) throw Error("quantized collective: codec '" + codec.name() + "' runs on CUDA but the buffer is not device memory");
  return default_context(Device::cuda(d));
}

Tensor wrap_rows(float* p, size_t rows, size_t cols, const DeviceContext& ctx) {
  return Tensor::wrap(p, {int64_t(rows), int64_t(cols)}, DType::f32, ctx.device());
}

size_t total(std::span<const size_t> v) {
  size_t s = 0;
  for (size_t x : v) s += x;
  return s;
}

}  // namespace

size_t block_wire_bytes(const quant::Codec& codec, size_t rows, size_t cols, size_t range_values) {
  const Cut k = cut(rows, cols, range_values);
  return codec.wire_bytes(k.rows, k.cols) + (k.tail ? codec.wire_bytes(1, k.tail) : 0);
}

QuantizedRequest iall_to_all_v_quantized(Communicator& comm, DeviceContext& ctx, const quant::Codec& codec,
                                         const Tensor& send, std::span<const size_t> send_rows, const Tensor& recv,
                                         std::span<const size_t> recv_rows, uint64_t seed, const QuantizedOptions& o) {
  check_codec(codec, ctx, "all_to_all_v_quantized");
  const size_t n = size_t(comm.size()), me = size_t(comm.rank());
  if (send_rows.size() != n || recv_rows.size() != n)
    throw Error("all_to_all_v_quantized: send_rows and recv_rows need one entry per rank (" + std::to_string(n) + ")");
  const size_t cols = size_t(send.row_numel());
  if (size_t(recv.row_numel()) != cols)
    throw Error("all_to_all_v_quantized: send has " + std::to_string(cols) + " columns, recv " +
                std::to_string(recv.row_numel()));
  if (size_t(send.rows()) < total(send_rows) || size_t(recv.rows()) < total(recv_rows))
    throw Error("all_to_all_v_quantized: the row counts need " + std::to_string(total(send_rows)) + " send and " +
                std::to_string(total(recv_rows)) + " recv rows, the tensors have " + std::to_string(send.rows()) +
                " and " + std::to_string(recv.rows()));
  std::vector<size_t> sbytes(n), rbytes(n);
  size_t stotal = 0, rtotal = 0;
  for (size_t p = 0; p < n; ++p) {
    sbytes[p] = block_wire_bytes(codec, send_rows[p], cols, o.range_values);
    rbytes[p] = block_wire_bytes(codec, recv_rows[p], cols, o.range_values);
    stotal += sbytes[p];
    rtotal += rbytes[p];
  }
  const float* src = rows_ptr(send);
  // Passthrough: the blocks are the rows, back to back in peer order, as they lie in send and recv.
  const bool as_is = codec.passthrough();
  auto wire = std::make_shared<Wire>(comm, ctx, stotal, rtotal, "all_to_all_v_quantized", as_is ? src : nullptr,
                                     as_is ? rows_ptr(recv) : nullptr);
  // Error feedback reads what the peers will decode: with a passthrough codec, the rows themselves.
  if (as_is && o.sent && stotal) copy_bytes(o.sent, ctx.device(), src, ctx.device(), stotal);
  QuantizedRequest out;
  size_t row = 0, off = 0;
  for (size_t p = 0; p < n; ++p) {
    if (!as_is) {
      encode_block(codec, src + row * cols, send_rows[p], cols, o.range_values, block_seed(seed, int(me), int(p)),
                   wire->encode_out() + off);
      // Error feedback reads what the peers will decode.
      if (o.sent) decode_block(codec, wire->encode_out() + off, send_rows[p], cols, o.range_values, o.sent + row * cols);
    }
    if (p != me) {
      out.volume.raw_bytes += send_rows[p] * cols * sizeof(float);
      out.volume.wire_bytes += sbytes[p];
    }
    row += send_rows[p];
    off += sbytes[p];
  }
  add_volume(comm, out.volume);
  ctx.synchronize();  // the codec's kernels are done before the communicator reads the wire
  out.request = comm.iall_to_all_v(wire->comm_send(), sbytes, wire->comm_recv(), rbytes);
  std::vector<size_t> rrows(recv_rows.begin(), recv_rows.end());
  const quant::Codec* c = &codec;
  const size_t rv = o.range_values;
  out.request.then([wire, rrows, rbytes, recv, cols, rv, c, as_is] {
    wire->received();
    if (as_is) return;  // received into the rows themselves
    float* dst = rows_ptr(recv);
    size_t row = 0, off = 0;
    for (size_t p = 0; p < rrows.size(); ++p) {
      decode_block(*c, wire->decode_in() + off, rrows[p], cols, rv, dst + row * cols);
      row += rrows[p];
      off += rbytes[p];
    }
  });
  return out;
}

WireVolume all_to_all_v_quantized(Communicator& comm, DeviceContext& ctx, const quant::Codec& codec, const Tensor& send,
                                  std::span<const size_t> send_rows, const Tensor& recv,
                                  std::span<const size_t> recv_rows, uint64_t seed, const QuantizedOptions& options) {
  auto r = iall_to_all_v_quantized(comm, ctx, codec, send, send_rows, recv, recv_rows, seed, options);
  r.wait();
  return r.volume;
}

QuantizedRequest iall_reduce_quantized(Communicator& comm, DeviceContext& ctx, const quant::Codec& codec,
                                       const Tensor& data, uint64_t seed, size_t row_len) {
  check_codec(codec, ctx, "all_reduce_quantized");
  if (row_len == 0) throw Error("all_reduce_quantized: row_len must be > 0");
  const size_t count = size_t(data.numel());
  const size_t n = size_t(comm.size()), me = size_t(comm.rank());
  const size_t full = count / row_len, tail = count % row_len;
  const size_t main_bytes = codec.wire_bytes(full, row_len);
  const size_t blob = main_bytes + (tail ? codec.wire_bytes(1, tail) : 0);
  auto wire = std::make_shared<Wire>(comm, ctx, blob, blob * n, "all_reduce_quantized");
  const uint64_t s = block_seed(seed, int(me), -1);
  float* x = rows_ptr(data);
  codec.encode(x, full, row_len, s, wire->encode_out());
  if (tail) codec.encode(x + full * row_len, 1, tail, s + 1, wire->encode_out() + main_bytes);
  QuantizedRequest out;
  out.volume.raw_bytes = count * sizeof(float) * (n - 1);
  out.volume.wire_bytes = blob * (n - 1);
  add_volume(comm, out.volume);
  out.request = comm.iall_gather(wire->comm_send(), blob, wire->comm_recv());
  const quant::Codec* c = &codec;
  DeviceContext* dc = &ctx;
  out.request.then([wire, n, blob, main_bytes, full, tail, row_len, count, data, c, dc] {
    wire->received();
    // Rank 0's block decodes into data, the others into a scratch vector added in rank order, so
    // every rank sums the same values in the same order (identical bits).
    Tensor tmp = wire->scratch_floats(count);
    Tensor flat = data.reshape({int64_t(count)});
    for (size_t p = 0; p < n; ++p) {
      const uint8_t* b = wire->decode_in() + p * blob;
      float* into = p == 0 ? rows_ptr(flat) : rows_ptr(tmp);
      c->decode(b, full, row_len, into);
      if (tail) c->decode(b + main_bytes, 1, tail, into + full * row_len);
      if (p > 0 && count) kernels::add(*dc, flat, tmp, flat);
    }
  });
  return out;
}

WireVolume all_reduce_quantized(Communicator& comm, DeviceContext& ctx, const quant::Codec& codec, const Tensor& data,
                                uint64_t seed, size_t row_len) {
  auto r = iall_reduce_quantized(comm, ctx, codec, data, seed, row_len);
  r.wait();
  return r.volume;
}

// ---- raw pointers: the tensor path on wrapped memory ----

QuantizedRequest iall_to_all_v_quantized(Communicator& comm, const quant::Codec& codec, const float* send,
                                         std::span<const size_t> send_rows, float* recv,
                                         std::span<const size_t> recv_rows, size_t cols, uint64_t seed,
                                         const QuantizedOptions& options) {
  DeviceContext& ctx = options.ctx ? *options.ctx : context_of(codec, send);
  Tensor s = wrap_rows(const_cast<float*>(send), total(send_rows), cols, ctx);
  Tensor r = wrap_rows(recv, total(recv_rows), cols, ctx);
  auto q = iall_to_all_v_quantized(comm, ctx, codec, s, send_rows, r, recv_rows, seed, options);
  // The codec may run on another stream than ctx's, whose pool the wire blocks return to.
  if (ctx.is_cuda()) q.request.then([&ctx] { ctx.backend().synchronize(ctx.device().index, nullptr); });
  return q;
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
  DeviceContext& ctx = context_of(codec, data);
  Tensor t = Tensor::wrap(data, {int64_t(count)}, DType::f32, ctx.device());
  auto q = iall_reduce_quantized(comm, ctx, codec, t, seed, row_len);
  if (ctx.is_cuda()) q.request.then([&ctx] { ctx.backend().synchronize(ctx.device().index, nullptr); });
  return q;
}

WireVolume all_reduce_quantized(Communicator& comm, const quant::Codec& codec, float* data, size_t count, uint64_t seed,
                                size_t row_len) {
  auto r = iall_reduce_quantized(comm, codec, data, count, seed, row_len);
  r.wait();
  return r.volume;
}

}  // namespace mlsys::comm
