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

Exchanger::Exchanger(comm::ProgressEngine& engine, DeviceContext& ctx, const HaloPlan& plan, uint64_t seed, const HaloOptions& o)
    : engine_(engine), ctx_(ctx), plan_(plan), seed_(seed), o_(o) {
  std::vector<int32_t> idx;
  for (int q = 0; q < plan.parts; ++q) {
    send_rows_.push_back(static_cast<size_t>(plan.sends_to(q)));
    recv_rows_.push_back(static_cast<size_t>(plan.halo_from(q)));
    idx.insert(idx.end(), plan.send_rows[q].begin(), plan.send_rows[q].end());
  }
  send_index_ = Tensor::from_vector(idx).to(ctx_);
}

double Exchanger::now_us() const { return now_s() * 1e6 - trace_t0_; }

// The unbiased codec of this width that runs where the worker's tensors are.
const quant::Codec& Exchanger::codec(int bits) {
  auto& c = codecs_[bits];
  if (!c) {
    quant::CodecParams p;
    p.impl = quant::impl_for(ctx_.device());
    p.cuda_stream = ctx_.stream();
    c = quant::unbiased_codec(bits, p);
  }
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

int64_t Exchanger::feedback_bytes() const {
  int64_t b = 0;
  for (const Stream* s : {&fwd_, &bwd_})
    for (const auto& [slot, t] : s->residual) b += t.numel() * 4;
  return b;
}

Exchanger::Pending Exchanger::post(Stream& s, int slot, int bits, Tensor send, const std::vector<size_t>& send_rows,
                                   const std::vector<size_t>& recv_rows, uint64_t seed) {
  const int64_t cols = send.row_numel();
  size_t nrecv = 0;
  for (size_t r : recv_rows) nrecv += r;
  Pending p;
  // Error feedback: send this epoch's rows plus what quantization lost on them last time.
  Tensor& e = s.residual[slot];
  if (o_.error_feedback && e.defined() && e.shape() == send.shape()) k::add(ctx_, send, e, send);
  p.send = send;
  p.recv = Tensor::empty({std::max<int64_t>(1, static_cast<int64_t>(nrecv)), cols}, DType::f32, ctx_);
  if (o_.error_feedback) p.sent = Tensor::empty(send.shape(), DType::f32, ctx_);
  const quant::Codec& c = codec(bits);
  if (stats_) {
    const int me = plan_.rank;
    for (size_t q = 0; q < send_rows.size(); ++q) {
      if (static_cast<int>(q) == me) continue;
      stats_->raw_bytes += send_rows[q] * static_cast<size_t>(cols) * sizeof(float);
      stats_->wire_bytes += comm::block_wire_bytes(c, send_rows[q], static_cast<size_t>(cols), static_cast<size_t>(o_.range_values));
    }
  }
  comm::QuantizedOptions qo;
  qo.ctx = &ctx_;
  qo.range_values = static_cast<size_t>(o_.range_values);
  qo.sent = p.sent.defined() ? p.sent.data<float>() : nullptr;
  // The tensors are held by the closure until the engine has run it (their storage stays put).
  Tensor snd = p.send, rcv = p.recv;
  const quant::Codec* cp = &c;
  p.ticket = engine_.submit(
      {std::string("halo ") + s.what + " layer " + std::to_string(slot),
       [snd, rcv, cp, &send_rows, &recv_rows, cols, seed, qo](comm::Communicator& comm) {
         return comm::iall_to_all_v_quantized(comm, *cp, snd.data<float>(), send_rows, rcv.data<float>(), recv_rows,
                                              static_cast<size_t>(cols), seed, qo)
             .request;
       },
       {},
       // A pipelined transfer is used an epoch later: an urgent operation posted meanwhile (the
       // gradient all-reduce) may pass it on the link. A synchronous one is waited on now.
       stale_ ? comm::kPriorityNormal : comm::kPriorityUrgent});
  return p;
}

Tensor Exchanger::take(Stream& s, int slot, Pending& p) {
  const double t = now_s();
  const double blocked = p.ticket.wait();
  if (stats_) {
    stats_->wait_s += blocked;
    stats_->quant_s += p.ticket.busy_seconds();
  }
  if (trace_) {
    const comm::Ticket::Times tm = p.ticket.times();
    const double off = trace_t0_;
    if (tm.start_end > 0)
      trace_->span(plan_.rank, 2, std::string("encode+send ") + s.what, tm.start_begin * 1e6 - off, (tm.start_end - tm.start_begin) * 1e6, "comm");
    if (tm.finish_end > 0)
      trace_->span(plan_.rank, 2, std::string("receive+decode ") + s.what, tm.finish_begin * 1e6 - off,
                   (tm.finish_end - tm.finish_begin) * 1e6, "comm");
    if (blocked > 1e-5) trace_->span(plan_.rank, 1, std::string("wait ") + s.what, t * 1e6 - off, blocked * 1e6, "wait");
  }
  if (o_.error_feedback) {
    Tensor& e = s.residual[slot];
    if (!e.defined() || e.shape() != p.send.shape()) e = Tensor::empty(p.send.shape(), DType::f32, ctx_);
    e.copy_from(p.send);
    k::axpy(ctx_, -1.0f, p.sent, e);  // what the peers did not get
  }
  Tensor got = p.recv;
  p = Pending();
  return got;
}

void Exchanger::drain() {
  drain(fwd_);
  drain(bwd_);
}

void Exchanger::drain(Stream& s) {
  for (auto& [slot, p] : s.pending) s.ready[slot] = take(s, slot, p);
  s.pending.clear();
}

Tensor Exchanger::transfer(Stream& s, int slot, int bits, Tensor send, const std::vector<size_t>& send_rows,
                           const std::vector<size_t>& recv_rows, uint64_t seed) {
  const int64_t cols = send.row_numel();
  if (!stale_) {
    Pending p = post(s, slot, bits, send, send_rows, recv_rows, seed);
    s.ready[slot] = take(s, slot, p);
    // The rows join the average; they are used as they arrived unless smooth_fresh says otherwise.
    Tensor average = smooth(s, slot, s.ready[slot]);
    return o_.smooth_fresh ? average : s.ready[slot];
  }
  // Error feedback needs the previous transfer's residual before posting this one; otherwise this
  // epoch's transfer is posted first, so it starts as early as possible.
  auto prev = s.pending.find(slot);
  const bool take_first = o_.error_feedback && prev != s.pending.end();
  if (take_first) {
    s.ready[slot] = take(s, slot, prev->second);
    s.pending.erase(prev);
  }
  Pending p = post(s, slot, bits, send, send_rows, recv_rows, seed);
  bool arrived = take_first;
  if (auto it = s.pending.find(slot); it != s.pending.end()) {
    s.ready[slot] = take(s, slot, it->second);
    arrived = true;
  }
  s.pending[slot] = std::move(p);
  auto ready = s.ready.find(slot);
  if (ready == s.ready.end() || ready->second.row_numel() != cols)
    throw Error(std::string("pipelined epoch without ") + s.what + " halo data from a previous epoch (epoch 0 must be synchronous)");
  // The first stale epoch after a synchronous one reuses that epoch's rows, already averaged in.
  if (o_.smoothing > 0 && !arrived) {
    auto m = s.smoothed.find(slot);
    if (m != s.smoothed.end() && m->second.shape() == ready->second.shape()) return m->second;
  }
  return smooth(s, slot, ready->second);
}

Tensor Exchanger::smooth(Stream& s, int slot, const Tensor& arrived) {
  if (o_.smoothing <= 0) return arrived;
  Tensor& m = s.smoothed[slot];
  if (!m.defined() || m.shape() != arrived.shape()) {
    m = arrived.clone();
    return m;
  }
  const float g = static_cast<float>(o_.smoothing);
  k::scale(ctx_, m, g, m);
  k::axpy(ctx_, 1.0f - g, arrived, m);
  return m;
}

Tensor Exchanger::pack_send(const Tensor& p_own) {
  const int64_t f = p_own.row_numel();
  Tensor s = Tensor::empty({std::max<int64_t>(1, send_index_.numel()), f}, DType::f32, ctx_);
  if (send_index_.numel()) k::gather_rows(ctx_, p_own, send_index_, s.rows(0, send_index_.numel()));
  return s.rows(0, send_index_.numel());
}

Tensor Exchanger::forward(int slot, const Tensor& p_own) {
  if (plan_.parts == 1) return p_own;  // nothing to exchange: no copy
  const int64_t own = plan_.num_owned(), halo = plan_.num_halo(), f = p_own.row_numel();
  Tensor ext = Tensor::empty({plan_.num_local(), f}, DType::f32, ctx_);
  ext.rows(0, own).copy_from(p_own);
  const uint64_t seed = derive_seed(seed_, static_cast<uint64_t>(epoch_), static_cast<uint64_t>(slot) * 2);
  // Stale: this epoch's rows arrive during the rest of the epoch and are used by the next one.
  Tensor use = transfer(fwd_, slot, fwd_bits_, pack_send(p_own), send_rows_, recv_rows_, seed);
  if (halo) ext.rows(own, own + halo).copy_from(use.rows(0, halo));
  return ext;
}

Tensor Exchanger::forward_exact(const Tensor& p_own) {
  if (plan_.parts == 1) return p_own;
  const int64_t own = plan_.num_owned(), halo = plan_.num_halo(), f = p_own.row_numel();
  Tensor ext = Tensor::empty({plan_.num_local(), f}, DType::f32, ctx_);
  ext.rows(0, own).copy_from(p_own);
  Tensor send = pack_send(p_own);
  Tensor buf = Tensor::empty({std::max<int64_t>(1, halo), f}, DType::f32, ctx_);
  const quant::Codec* c = &codec(32);
  comm::QuantizedOptions qo;
  qo.ctx = &ctx_;
  const std::vector<size_t>& sr = send_rows_;
  const std::vector<size_t>& rr = recv_rows_;
  engine_.call("halo fwd (evaluation)", [&](comm::Communicator& comm) {
    comm::all_to_all_v_quantized(comm, *c, send.numel() ? send.data<float>() : nullptr, sr, buf.data<float>(), rr,
                                 static_cast<size_t>(f), 0, qo);
  });
  if (halo) ext.rows(own, own + halo).copy_from(buf.rows(0, halo));
  return ext;
}

Tensor Exchanger::backward(int slot, const Tensor& grad_ext) {
  if (plan_.parts == 1) return grad_ext;
  const int64_t own = plan_.num_owned(), halo = plan_.num_halo(), f = grad_ext.row_numel();
  Tensor out = grad_ext.rows(0, own).clone();
  const uint64_t seed = derive_seed(seed_, static_cast<uint64_t>(epoch_), static_cast<uint64_t>(slot) * 2 + 1);
  // The halo rows' gradients, copied: the caller may reuse grad_ext while the engine encodes.
  Tensor send = Tensor::empty({std::max<int64_t>(1, halo), f}, DType::f32, ctx_).rows(0, halo);
  if (halo) send.copy_from(grad_ext.rows(own, own + halo));
  const int64_t nrecv = send_index_.numel();
  Tensor use = transfer(bwd_, slot, bwd_bits_, send, recv_rows_, send_rows_, seed);
  if (nrecv) k::scatter_add_rows(ctx_, use.rows(0, nrecv), send_index_, out);
  return out;
}

}  // namespace mlsys::gnn
