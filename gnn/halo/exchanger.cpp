#include "gnn/halo/exchanger.hpp"

#include <algorithm>
#include <chrono>

#include "core/kernels/kernels.hpp"
#include "gnn/graph/random.hpp"

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
  for (auto& [slot, p] : fwd_pending_) {
    wait(p.req, "fwd");
    fwd_ready_[slot] = p.buffer;
  }
  fwd_pending_.clear();
  for (auto& [slot, p] : bwd_pending_) {
    wait(p.req, "bwd");
    bwd_ready_[slot] = p.buffer;
  }
  bwd_pending_.clear();
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
  const uint64_t seed = hash_key(seed_, static_cast<uint64_t>(epoch_), static_cast<uint64_t>(slot) * 2);
  Tensor send = pack_send(p_own);
  if (stale_) {
    // Post this epoch's rows first (they arrive during the rest of the epoch and are used by the
    // next one), then take the previous epoch's, which have had a whole epoch to arrive.
    Tensor buf = Tensor::empty({std::max<int64_t>(1, halo), f}, DType::f32, cpu_context());
    auto req = start(codec(fwd_bits_), send.data<float>(), send_rows_, buf.data<float>(), recv_rows_, static_cast<size_t>(f), seed);
    if (auto it = fwd_pending_.find(slot); it != fwd_pending_.end()) {
      wait(it->second.req, "fwd");
      fwd_ready_[slot] = it->second.buffer;
    }
    fwd_pending_[slot] = Pending{std::move(req), buf};
    auto ready = fwd_ready_.find(slot);
    if (ready == fwd_ready_.end() || ready->second.row_numel() != f)
      throw Error("pipelined epoch without halo data from a previous epoch (epoch 0 must be synchronous)");
    if (halo) ext.rows(own, own + halo).copy_from(ready->second.rows(0, halo));
    return ext;
  }
  Tensor buf = Tensor::empty({std::max<int64_t>(1, halo), f}, DType::f32, cpu_context());
  auto req = start(codec(fwd_bits_), send.data<float>(), send_rows_, buf.data<float>(), recv_rows_, static_cast<size_t>(f), seed);
  wait(req, "fwd");
  fwd_ready_[slot] = buf;
  if (halo) ext.rows(own, own + halo).copy_from(buf.rows(0, halo));
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
  const uint64_t seed = hash_key(seed_, static_cast<uint64_t>(epoch_), static_cast<uint64_t>(slot) * 2 + 1);
  Tensor send = halo ? grad_ext.rows(own, own + halo) : Tensor::zeros({1, f}, DType::f32, ctx_);
  if (!send.device().is_cpu()) send = send.to(cpu_context());
  const int64_t nrecv = send_index_.numel();
  Tensor buf = Tensor::empty({std::max<int64_t>(1, nrecv), f}, DType::f32, cpu_context());
  Tensor use;
  if (stale_) {
    auto req = start(codec(bwd_bits_), send.data<float>(), recv_rows_, buf.data<float>(), send_rows_, static_cast<size_t>(f), seed);
    if (auto it = bwd_pending_.find(slot); it != bwd_pending_.end()) {
      wait(it->second.req, "bwd");
      bwd_ready_[slot] = it->second.buffer;
    }
    bwd_pending_[slot] = Pending{std::move(req), buf};
    auto ready = bwd_ready_.find(slot);
    if (ready == bwd_ready_.end() || ready->second.row_numel() != f)
      throw Error("pipelined epoch without halo gradients from a previous epoch (epoch 0 must be synchronous)");
    use = ready->second;
  } else {
    auto req = start(codec(bwd_bits_), send.data<float>(), recv_rows_, buf.data<float>(), send_rows_, static_cast<size_t>(f), seed);
    wait(req, "bwd");
    bwd_ready_[slot] = buf;
    use = buf;
  }
  if (nrecv) {
    Tensor add = use.rows(0, nrecv);
    if (!ctx_.device().is_cpu()) add = add.to(ctx_);
    k::scatter_add_rows(ctx_, add, send_index_, out);
  }
  return out;
}

}  // namespace mlsys::gnn
