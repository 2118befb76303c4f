#include "gnn/halo/exchanger.hpp"

#include <algorithm>
#include <chrono>

#include "core/kernels/kernels.hpp"
#include "core/util/random.hpp"

namespace mlsys::gnn {

namespace k = kernels;

static double now_s() {
  using C = std::chrono::steady_clock;
  return std::chrono::duration<double>(C::now().time_since_epoch()).count();
}

Exchanger::Exchanger(comm::Communicator& comm, DeviceContext& ctx, const HaloPlan& plan, uint64_t seed)
    : comm_(comm), ctx_(ctx), plan_(plan), seed_(seed) {
  std::vector<int32_t> idx;
  for (int q = 0; q < plan.parts; ++q) {
    send_rows_.push_back(static_cast<size_t>(plan.sends_to(q)));
    recv_rows_.push_back(static_cast<size_t>(plan.halo_from(q)));
    idx.insert(idx.end(), plan.send_rows[q].begin(), plan.send_rows[q].end());
  }
  send_index_ = Tensor::from_vector(idx).to(ctx_);
}

double Exchanger::now_us() const { return now_s() * 1e6 - trace_t0_; }

const quant::Codec& Exchanger::codec(int bits) {
  auto& c = codecs_[bits];
  if (!c) c = quant::unbiased_codec(bits);
  return *c;
}

void Exchanger::begin_epoch(int epoch, bool stale, int fwd_bits, int bwd_bits, HaloCounters* stats) {
  if (!stale) drain();
  epoch_ = epoch;
  stale_ = stale;
  fwd_bits_ = fwd_bits;
  bwd_bits_ = bwd_bits;
  stats_ = stats;
}

void Exchanger::wait(comm::QuantizedRequest& r, const char* what) {
  // wait() receives (the transport copies the wire bytes in) and then decodes on this thread. Only
  // the time blocked on data that had not arrived yet counts as waiting (the communicator measures
  // it, decoding excluded); receiving data already there and decoding it count with the encoding.
  const double t = now_s(), blocked0 = comm_.stats().wait_seconds;
  const bool arrived = r.request.test();  // non-blocking; receives and decodes when complete
  if (!arrived) r.wait();
  const double dt = now_s() - t;
  const double blocked = arrived ? 0.0 : std::clamp(comm_.stats().wait_seconds - blocked0, 0.0, dt);
  if (stats_) {
    stats_->wait_s += blocked;
    stats_->quant_s += dt - blocked;
  }
  if (trace_) {
    if (blocked > 1e-5) trace_->span(plan_.rank, 1, std::string("wait ") + what, now_us() - dt * 1e6, blocked * 1e6, "wait");
    if (dt - blocked > 1e-5)
      trace_->span(plan_.rank, 1, std::string("receive+decode ") + what, now_us() - (dt - blocked) * 1e6, (dt - blocked) * 1e6, "comm");
  }
}

void Exchanger::drain() {
  drain(fwd_);
  drain(bwd_);
}

void Exchanger::drain(Stream& s) {
  for (auto& [slot, p] : s.pending) {
    wait(p.req, s.what);
    s.ready[slot] = p.buffer;
  }
  s.pending.clear();
}

Tensor Exchanger::transfer(Stream& s, int slot, const quant::Codec& c, const float* send, std::span<const size_t> send_rows,
                           const Tensor& buf, std::span<const size_t> recv_rows, int64_t cols, uint64_t seed) {
  auto req = start(c, send, send_rows, buf.data<float>(), recv_rows, static_cast<size_t>(cols), seed);
  if (!stale_) {
    wait(req, s.what);
    s.ready[slot] = buf;
    return buf;
  }
  if (auto it = s.pending.find(slot); it != s.pending.end()) {
    wait(it->second.req, s.what);
    s.ready[slot] = it->second.buffer;
  }
  s.pending[slot] = Pending{std::move(req), buf};
  auto ready = s.ready.find(slot);
  if (ready == s.ready.end() || ready->second.row_numel() != cols)
    throw Error(std::string("pipelined epoch without ") + s.what + " halo data from a previous epoch (epoch 0 must be synchronous)");
  return ready->second;
}

comm::QuantizedRequest Exchanger::start(const quant::Codec& c, const float* send, std::span<const size_t> send_rows,
                                        float* recv, std::span<const size_t> recv_rows, size_t cols, uint64_t seed) {
  double t = now_s();
  auto r = comm::iall_to_all_v_quantized(comm_, c, send, send_rows, recv, recv_rows, cols, seed);
  double dt = now_s() - t;
  if (stats_) {
    stats_->quant_s += dt;
    stats_->raw_bytes += r.volume.raw_bytes;
    stats_->wire_bytes += r.volume.wire_bytes;
  }
  if (trace_) trace_->span(plan_.rank, 1, "encode+send " + c.name(), now_us() - dt * 1e6, dt * 1e6, "comm");
  return r;
}

Tensor Exchanger::pack_send(const Tensor& p_own) {
  const int64_t f = p_own.row_numel();
  Tensor s = Tensor::empty({std::max<int64_t>(1, send_index_.numel()), f}, DType::f32, ctx_);
  if (send_index_.numel()) k::gather_rows(ctx_, p_own, send_index_, s.rows(0, send_index_.numel()));
  return s.device().is_cpu() ? s : s.to(cpu_context());
}

Tensor Exchanger::forward(int slot, const Tensor& p_own) {
  if (plan_.parts == 1) return p_own;  // nothing to exchange: no copy
  const int64_t own = plan_.num_owned(), halo = plan_.num_halo(), f = p_own.row_numel();
  Tensor ext = Tensor::empty({plan_.num_local(), f}, DType::f32, ctx_);
  ext.rows(0, own).copy_from(p_own);
  const uint64_t seed = derive_seed(seed_, static_cast<uint64_t>(epoch_), static_cast<uint64_t>(slot) * 2);
  Tensor send = pack_send(p_own);
  // Stale: this epoch's rows arrive during the rest of the epoch and are used by the next one.
  Tensor buf = Tensor::empty({std::max<int64_t>(1, halo), f}, DType::f32, cpu_context());
  Tensor use = transfer(fwd_, slot, codec(fwd_bits_), send.data<float>(), send_rows_, buf, recv_rows_, f, seed);
  if (halo) ext.rows(own, own + halo).copy_from(use.rows(0, halo));
  return ext;
}

Tensor Exchanger::forward_exact(const Tensor& p_own) {
  if (plan_.parts == 1) return p_own;
  const int64_t own = plan_.num_owned(), halo = plan_.num_halo(), f = p_own.row_numel();
  Tensor ext = Tensor::empty({plan_.num_local(), f}, DType::f32, ctx_);
  ext.rows(0, own).copy_from(p_own);
  Tensor send = pack_send(p_own);
  Tensor buf = Tensor::empty({std::max<int64_t>(1, halo), f}, DType::f32, cpu_context());
  comm::all_to_all_v_quantized(comm_, codec(32), send.data<float>(), send_rows_, buf.data<float>(), recv_rows_,
                               static_cast<size_t>(f), 0);
  if (halo) ext.rows(own, own + halo).copy_from(buf.rows(0, halo));
  return ext;
}

Tensor Exchanger::backward(int slot, const Tensor& grad_ext) {
  if (plan_.parts == 1) return grad_ext;
  const int64_t own = plan_.num_owned(), halo = plan_.num_halo(), f = grad_ext.row_numel();
  Tensor out = grad_ext.rows(0, own).clone();
  const uint64_t seed = derive_seed(seed_, static_cast<uint64_t>(epoch_), static_cast<uint64_t>(slot) * 2 + 1);
  Tensor send = halo ? grad_ext.rows(own, own + halo) : Tensor::zeros({1, f}, DType::f32, ctx_);
  if (!send.device().is_cpu()) send = send.to(cpu_context());
  const int64_t nrecv = send_index_.numel();
  Tensor buf = Tensor::empty({std::max<int64_t>(1, nrecv), f}, DType::f32, cpu_context());
  Tensor use = transfer(bwd_, slot, codec(bwd_bits_), send.data<float>(), recv_rows_, buf, send_rows_, f, seed);
  if (nrecv) {
    Tensor add = use.rows(0, nrecv);
    if (!ctx_.device().is_cpu()) add = add.to(ctx_);
    k::scatter_add_rows(ctx_, add, send_index_, out);
  }
  return out;
}

}  // namespace mlsys::gnn
