#include "tests/core/comm/collective_cases.hpp"

#include <cstring>
#include <numeric>
#include <stdexcept>

#include "core/comm/quantized.hpp"
#include "core/comm/tensor_ops.hpp"
#include "core/quant/codec.hpp"
#include "core/quant/device_kernels.hpp"
#include "core/quant/rng.hpp"
#include "core/tensor/device_context.hpp"

namespace mlsys::test {

namespace {
DataContextFn& data_context_override() {
  static DataContextFn fn;
  return fn;
}
}  // namespace

void set_data_context(DataContextFn fn) { data_context_override() = std::move(fn); }

DeviceContext& data_context(const comm::Communicator& c) {
  if (data_context_override()) return data_context_override()(c);
  if (c.accepts(Device::cpu())) return cpu_context();
  for (int d = 0; d < cuda_device_count(); ++d)
    if (c.accepts(Device::cuda(d))) return default_context(Device::cuda(d));
  throw std::runtime_error("communicator '" + c.backend() + "' accepts neither host memory nor a visible GPU");
}

namespace {

using comm::Communicator;
using comm::ReduceOp;

void expect(bool ok, const Communicator& c, const std::string& what) {
  if (!ok)
    throw std::runtime_error("rank " + std::to_string(c.rank()) + " of " + std::to_string(c.size()) + ": " + what);
}

// A buffer in memory the communicator takes directly (host, or its GPU for nccl), with a host
// mirror: the plain collectives get raw pointers of that memory.
template <class T>
class Buf {
 public:
  Buf(const Communicator& c, size_t n) : host(n) {
    if (!c.accepts(Device::cpu())) dev_ = Tensor::empty({int64_t(n)}, dtype_of<T>, data_context(c));
  }
  T* ptr() { return dev_.defined() ? static_cast<T*>(dev_.raw()) : host.data(); }
  std::span<T> span() { return {ptr(), host.size()}; }
  void upload() {
    if (dev_.defined() && !host.empty()) copy_bytes(dev_.raw(), dev_.device(), host.data(), Device::cpu(), bytes());
  }
  void download() {
    if (dev_.defined() && !host.empty()) copy_bytes(host.data(), Device::cpu(), dev_.raw(), dev_.device(), bytes());
  }
  std::vector<T> host;

 private:
  size_t bytes() const { return host.size() * sizeof(T); }
  Tensor dev_;
};

// Deterministic value that rank `src` sends to `dst` at index i (exact in float).
float value(int src, int dst, size_t i) { return float(src * 1000 + dst * 100) + float(i % 97) * 0.25f; }

void rank_and_size(Communicator& c) {
  expect(c.size() >= 1 && c.rank() >= 0 && c.rank() < c.size(), c, "rank/size out of range");
  Buf<int64_t> all(c, size_t(c.size()));
  Buf<int64_t> mine(c, 1);
  mine.host[0] = c.rank();
  mine.upload();
  c.all_gather(mine.ptr(), sizeof(int64_t), all.ptr());
  all.download();
  for (int r = 0; r < c.size(); ++r) expect(all.host[size_t(r)] == r, c, "all_gather of ranks");
}

void send_recv_ring(Communicator& c) {
  if (c.size() < 2) return;
  const int next = (c.rank() + 1) % c.size(), prev = (c.rank() + c.size() - 1) % c.size();
  for (size_t n : {size_t(0), size_t(1), size_t(1000)}) {
    Buf<float> out(c, n), in(c, n);
    for (size_t i = 0; i < n; ++i) out.host[i] = value(c.rank(), next, i);
    out.upload();
    // Send first then receive: the async send may not block the ring.
    auto s = c.isend(out.ptr(), n * sizeof(float), next, 7);
    auto r = c.irecv(in.ptr(), n * sizeof(float), prev, 7);
    r.wait();
    s.wait();
    in.download();
    for (size_t i = 0; i < n; ++i) expect(in.host[i] == value(prev, c.rank(), i), c, "ring recv value");
  }
  // Two tags in flight, received in the opposite order. NCCL has no tags (messages between a
  // pair match in issue order, documented), so this part is for the tagged backends.
  if (c.backend() == "nccl") return;
  Buf<int64_t> a(c, 1), b(c, 1), ra(c, 1), rb(c, 1);
  a.host[0] = 11;
  b.host[0] = 22;
  a.upload();
  b.upload();
  auto s1 = c.isend(a.ptr(), 8, next, 1);
  auto s2 = c.isend(b.ptr(), 8, next, 2);
  c.recv(rb.ptr(), 8, prev, 2);
  c.recv(ra.ptr(), 8, prev, 1);
  s1.wait();
  s2.wait();
  ra.download();
  rb.download();
  expect(ra.host[0] == 11 && rb.host[0] == 22, c, "tag matching");
}

void broadcast_every_root(Communicator& c) {
  for (int root = 0; root < c.size(); ++root) {
    for (size_t n : {size_t(0), size_t(1), size_t(4099)}) {
      Buf<float> buf(c, n);
      for (size_t i = 0; i < n; ++i) buf.host[i] = c.rank() == root ? value(root, 0, i) : -1.0f;
      buf.upload();
      c.broadcast(buf.ptr(), n * sizeof(float), root);
      buf.download();
      for (size_t i = 0; i < n; ++i)
        expect(buf.host[i] == value(root, 0, i), c, "broadcast from " + std::to_string(root));
    }
  }
}

template <class T>
void all_reduce_typed(Communicator& c, size_t n) {
  Buf<T> sum(c, n), mx(c, n), mn(c, n);
  for (size_t i = 0; i < n; ++i) {
    T v = T((c.rank() + 1) * int64_t(i % 13)) - T(c.rank());
    sum.host[i] = mx.host[i] = mn.host[i] = v;
  }
  sum.upload();
  mx.upload();
  mn.upload();
  c.all_reduce(sum.span());
  c.all_reduce(mx.span(), ReduceOp::max);
  c.all_reduce(mn.span(), ReduceOp::min);
  sum.download();
  mx.download();
  mn.download();
  for (size_t i = 0; i < n; ++i) {
    T s = 0, hi = 0, lo = 0;
    for (int r = 0; r < c.size(); ++r) {
      T v = T((r + 1) * int64_t(i % 13)) - T(r);
      s = T(s + v);
      hi = r == 0 || v > hi ? v : hi;
      lo = r == 0 || v < lo ? v : lo;
    }
    expect(sum.host[i] == s, c, "all_reduce sum at " + std::to_string(i) + " (n=" + std::to_string(n) + ")");
    expect(mx.host[i] == hi, c, "all_reduce max");
    expect(mn.host[i] == lo, c, "all_reduce min");
  }
}

void all_reduce_types_and_sizes(Communicator& c) {
  for (size_t n : {size_t(0), size_t(1), size_t(7), size_t(1001)}) {
    all_reduce_typed<float>(c, n);
    all_reduce_typed<double>(c, n);
    all_reduce_typed<int64_t>(c, n);
  }
  expect(c.all_reduce_value<int64_t>(1) == c.size(), c, "all_reduce_value");
}

// Random floats: the result must be the same bits on every rank.
void all_reduce_same_bits_everywhere(Communicator& c) {
  const size_t n = 333;
  Buf<float> x(c, n);
  for (size_t i = 0; i < n; ++i)
    x.host[i] = quant::rng_uniform(quant::rng_bits(quant::rng_row_key(9, uint64_t(c.rank())), uint32_t(i))) - 0.5f;
  x.upload();
  c.all_reduce(x.span());
  x.download();
  uint64_t h = 1469598103934665603ull;
  for (float v : x.host) {
    uint32_t u;
    std::memcpy(&u, &v, 4);
    h = (h ^ u) * 1099511628211ull;
  }
  Buf<int64_t> mine(c, 1), all(c, size_t(c.size()));
  mine.host[0] = int64_t(h >> 1);
  mine.upload();
  c.all_gather(mine.ptr(), 8, all.ptr());
  all.download();
  for (auto v : all.host) expect(v == all.host[0], c, "all_reduce results differ between ranks");
}

void all_gather_v_and_gather(Communicator& c) {
  const int n = c.size();
  std::vector<size_t> bytes(static_cast<size_t>(n));
  for (int r = 0; r < n; ++r) bytes[size_t(r)] = size_t(r + 1) * 3 * sizeof(float);
  size_t total = std::accumulate(bytes.begin(), bytes.end(), size_t(0)) / sizeof(float);
  Buf<float> mine(c, size_t(c.rank() + 1) * 3), all(c, total);
  for (size_t i = 0; i < mine.host.size(); ++i) mine.host[i] = value(c.rank(), 0, i);
  mine.upload();
  c.all_gather_v(mine.ptr(), bytes, all.ptr());
  all.download();
  size_t k = 0;
  for (int r = 0; r < n; ++r)
    for (size_t i = 0; i < size_t(r + 1) * 3; ++i) expect(all.host[k++] == value(r, 0, i), c, "all_gather_v");
  for (int root = 0; root < n; ++root) {
    Buf<float> one(c, 5), got(c, 5 * size_t(n));
    for (size_t i = 0; i < 5; ++i) one.host[i] = value(c.rank(), root, i);
    one.upload();
    c.gather(one.ptr(), 5 * sizeof(float), got.ptr(), root);
    got.download();
    if (c.rank() == root)
      for (int r = 0; r < n; ++r)
        for (size_t i = 0; i < 5; ++i) expect(got.host[size_t(r) * 5 + i] == value(r, root, i), c, "gather");
  }
}

size_t a2a_count(int src, int dst) { return size_t((src * 3 + dst * 5) % 4) * 17; }  // includes zeros

void all_to_all_v_variable(Communicator& c) {
  const int n = c.size(), me = c.rank();
  std::vector<size_t> sc(static_cast<size_t>(n)), rc(static_cast<size_t>(n));
  for (int p = 0; p < n; ++p) {
    sc[size_t(p)] = a2a_count(me, p);
    rc[size_t(p)] = a2a_count(p, me);
  }
  auto got_rc = c.exchange_counts(sc);
  expect(got_rc == rc, c, "exchange_counts");
  Buf<float> send(c, std::accumulate(sc.begin(), sc.end(), size_t(0))),
      recv(c, std::accumulate(rc.begin(), rc.end(), size_t(0)));
  size_t k = 0;
  for (int p = 0; p < n; ++p)
    for (size_t i = 0; i < sc[size_t(p)]; ++i) send.host[k++] = value(me, p, i);
  send.upload();
  c.all_to_all_v<float>(send.span(), sc, recv.span(), rc);
  recv.download();
  k = 0;
  for (int p = 0; p < n; ++p)
    for (size_t i = 0; i < rc[size_t(p)]; ++i) expect(recv.host[k++] == value(p, me, i), c, "all_to_all_v value");
}

void barrier_and_stats(Communicator& c) {
  auto before = c.stats();
  c.barrier();
  auto r = c.ibarrier();
  r.wait();
  r.wait();  // waiting twice is fine
  auto after = c.stats();
  expect(after.ops >= before.ops + 2, c, "ops counter");
}

// Two operations in flight while the rank computes, waited in reverse order.
void async_overlap(Communicator& c) {
  const int n = c.size(), me = c.rank();
  const size_t m = 2048;
  Buf<double> g(c, m);
  for (size_t i = 0; i < m; ++i) g.host[i] = double(me + 1) * double(i);
  g.upload();
  std::vector<size_t> cnt(static_cast<size_t>(n), 64);
  Buf<float> send(c, 64 * size_t(n)), recv(c, 64 * size_t(n));
  for (int p = 0; p < n; ++p)
    for (size_t i = 0; i < 64; ++i) send.host[size_t(p) * 64 + i] = value(me, p, i);
  send.upload();
  auto r1 = c.iall_reduce(g.span());
  auto r2 = c.iall_to_all_v<float>(send.span(), cnt, recv.span(), cnt);
  double busy = 0;  // computation overlapping the communication
  for (int i = 0; i < 100000; ++i) busy += double(i % 7);
  r2.wait();
  r1.wait();
  g.download();
  recv.download();
  expect(busy > 0, c, "busy");
  const double tri = double(n) * double(n + 1) / 2;
  for (size_t i = 0; i < m; ++i) expect(g.host[i] == tri * double(i), c, "async all_reduce");
  for (int p = 0; p < n; ++p)
    for (size_t i = 0; i < 64; ++i) expect(recv.host[size_t(p) * 64 + i] == value(p, me, i), c, "async all_to_all_v");
}

// Rows that rank src sends to dst, cols features each, deterministic in (src, dst).
std::vector<float> halo_block(int src, int dst, size_t rows, size_t cols) {
  std::vector<float> x(rows * cols);
  uint32_t key = quant::rng_row_key(1234, uint64_t(src * 64 + dst));
  for (size_t i = 0; i < x.size(); ++i) x[i] = 4.0f * quant::rng_uniform(quant::rng_bits(key, uint32_t(i))) - 1.0f;
  if (rows > 1)
    for (size_t j = 0; j < cols; ++j) x[j] = 0.375f;  // a constant row: must decode exactly
  return x;
}

// The quantized collectives run where the data context puts the data (host, a GPU, an emulated
// device) with the codec's kernels for that memory, and must match the reference codec bit for bit.
void quantized_all_to_all_matches_reference(Communicator& c) {
  const int n = c.size(), me = c.rank();
  const uint64_t seed = 77;
  DeviceContext& ctx = data_context(c);
  for (std::string name : {"sr1", "sr2", "sr4", "sr8", "fp16", "fp32"}) {
    for (size_t cols : {size_t(1), size_t(13), size_t(128)}) {
      auto codec = quant::make_codec(name, quant::params_for(ctx));
      quant::CodecParams rp;
      rp.impl = quant::Impl::reference;
      auto ref = quant::make_codec(name, rp);
      std::vector<size_t> sr(static_cast<size_t>(n)), rr(static_cast<size_t>(n));
      for (int p = 0; p < n; ++p) {
        sr[size_t(p)] = a2a_count(me, p) / 17 * 5 + 1;
        rr[size_t(p)] = a2a_count(p, me) / 17 * 5 + 1;
      }
      std::vector<float> send, recv(std::accumulate(rr.begin(), rr.end(), size_t(0)) * cols);
      for (int p = 0; p < n; ++p) {
        auto b = halo_block(me, p, sr[size_t(p)], cols);
        send.insert(send.end(), b.begin(), b.end());
      }
      const int64_t rows_in = int64_t(recv.size() / cols), rows_out = int64_t(send.size() / cols);
      Tensor dsend = Tensor::from_vector(send, {rows_out, int64_t(cols)}).to(ctx);
      Tensor drecv = Tensor::zeros({rows_in, int64_t(cols)}, DType::f32, ctx);
      // With error feedback's `sent` (what the peers decode): a passthrough codec (fp32) sends
      // the rows as they are and copies them there; the others decode what they encoded.
      Tensor dsent = Tensor::zeros({rows_out, int64_t(cols)}, DType::f32, ctx);
      comm::QuantizedOptions qo;
      qo.sent = dsent.data<float>();
      auto vol = comm::all_to_all_v_quantized(c, ctx, *codec, dsend, sr, drecv, rr, seed, qo);
      recv = drecv.to_vector<float>();
      const std::vector<float> sent = dsent.to_vector<float>();
      for (size_t p = 0, row = 0; p < size_t(n); row += sr[p], ++p) {
        std::vector<uint8_t> wirebuf(ref->wire_bytes(sr[p], cols));
        std::vector<float> expect_sent(sr[p] * cols);
        ref->encode(send.data() + row * cols, sr[p], cols, comm::block_seed(seed, me, int(p)), wirebuf.data());
        ref->decode(wirebuf.data(), sr[p], cols, expect_sent.data());
        expect(std::memcmp(expect_sent.data(), sent.data() + row * cols, expect_sent.size() * 4) == 0, c,
               "error feedback's sent rows != what the reference codec decodes, " + name + ", to rank " + std::to_string(p));
      }
      uint64_t raw = 0, wire = 0;
      for (int p = 0; p < n; ++p)
        if (p != me) {
          raw += sr[size_t(p)] * cols * 4;
          wire += codec->wire_bytes(sr[size_t(p)], cols);
        }
      expect(vol.raw_bytes == raw && vol.wire_bytes == wire, c, "quantized volume counters");
      size_t row = 0;
      for (int p = 0; p < n; ++p) {
        auto x = halo_block(p, me, rr[size_t(p)], cols);
        std::vector<uint8_t> wirebuf(ref->wire_bytes(rr[size_t(p)], cols));
        std::vector<float> expect_x(x.size());
        ref->encode(x.data(), rr[size_t(p)], cols, comm::block_seed(seed, p, me), wirebuf.data());
        ref->decode(wirebuf.data(), rr[size_t(p)], cols, expect_x.data());
        expect(std::memcmp(expect_x.data(), recv.data() + row * cols, x.size() * 4) == 0, c,
               "quantized all_to_all_v != reference codec, " + name + ", cols " +
                   std::to_string(cols) + ", from rank " + std::to_string(p));
        row += rr[size_t(p)];
      }
    }
  }
}

void quantized_all_reduce_matches_reference(Communicator& c) {
  const size_t count = 1000;  // 7 rows of 128 plus a tail of 104
  DeviceContext& ctx = data_context(c);
  for (std::string name : {"sr1", "sr4", "sr8", "fp32"}) {
    auto codec = quant::make_codec(name, quant::params_for(ctx));
    Tensor dx = Tensor::from_vector(halo_block(c.rank(), 99, 1, count)).to(ctx);
    auto vol = comm::all_reduce_quantized(c, ctx, *codec, dx, 5);
    std::vector<float> x = dx.to_vector<float>();
    expect(vol.raw_bytes == count * 4 * uint64_t(c.size() - 1), c, "all_reduce_quantized raw bytes");
    // Expected: sum in rank order of each rank's decoded contribution, encoded by the reference.
    quant::CodecParams rp;
    rp.impl = quant::Impl::reference;
    auto ref = quant::make_codec(name, rp);
    std::vector<float> want(count, 0.0f), tmp(count);
    for (int p = 0; p < c.size(); ++p) {
      auto xp = halo_block(p, 99, 1, count);
      uint64_t s = comm::block_seed(5, p, -1);
      std::vector<uint8_t> w(ref->wire_bytes(7, 128)), wt(ref->wire_bytes(1, 104));
      ref->encode(xp.data(), 7, 128, s, w.data());
      ref->encode(xp.data() + 896, 1, 104, s + 1, wt.data());
      ref->decode(w.data(), 7, 128, tmp.data());
      ref->decode(wt.data(), 1, 104, tmp.data() + 896);
      for (size_t i = 0; i < count; ++i) want[i] = p == 0 ? tmp[i] : want[i] + tmp[i];
    }
    expect(std::memcmp(want.data(), x.data(), count * 4) == 0, c, "all_reduce_quantized " + name);
  }
}

// Tensor collectives (tensor_ops.hpp) on the data context's memory: staged through the host
// exactly when the communicator does not take that memory.
void tensor_all_reduce_and_broadcast(Communicator& c) {
  DeviceContext& ctx = data_context(c);
  std::vector<float> v(1000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = value(c.rank(), 0, i);
  Tensor t = Tensor::from_vector(v).to(ctx);
  comm::iall_reduce(c, t).wait();
  auto got = t.to_vector<float>();
  for (size_t i = 0; i < v.size(); ++i) {
    float want = 0;
    for (int r = 0; r < c.size(); ++r) want += value(r, 0, i);
    expect(got[i] == want, c, "tensor all_reduce at " + std::to_string(i));
  }
  Tensor b = Tensor::from_vector(std::vector<float>(17, float(c.rank() + 1))).to(ctx);
  comm::broadcast(c, b, c.size() - 1);
  for (float x : b.to_vector<float>()) expect(x == float(c.size()), c, "tensor broadcast");
}

}  // namespace

const std::vector<CollectiveCase>& collective_cases() {
  static const std::vector<CollectiveCase> cases = {
      {"rank_and_size", rank_and_size},
      {"send_recv_ring", send_recv_ring},
      {"broadcast_every_root", broadcast_every_root},
      {"all_reduce_types_and_sizes", all_reduce_types_and_sizes},
      {"all_reduce_same_bits_everywhere", all_reduce_same_bits_everywhere},
      {"all_gather_v_and_gather", all_gather_v_and_gather},
      {"all_to_all_v_variable", all_to_all_v_variable},
      {"barrier_and_stats", barrier_and_stats},
      {"async_overlap", async_overlap},
      {"tensor_all_reduce_and_broadcast", tensor_all_reduce_and_broadcast},
      {"quantized_all_to_all_matches_reference", quantized_all_to_all_matches_reference},
      {"quantized_all_reduce_matches_reference", quantized_all_reduce_matches_reference},
  };
  return cases;
}

}  // namespace mlsys::test
