#include "gnn/train/evaluate.hpp"

#include "core/comm/tensor_ops.hpp"
#include "core/kernels/kernels.hpp"

namespace mlsys::gnn {

namespace {

// F1-micro of each split, predicting a class when its logit is > 0: per split the true positives,
// false positives and false negatives, summed over workers.
std::array<double, 3> f1_micro(comm::Communicator& c, DeviceContext& ctx, const Graph& g, const HaloPlan& plan, const WorkerInputs& in,
                               const Tensor& logits) {
  const int64_t own = plan.num_owned(), classes = g.num_classes;
  int64_t counts[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
  Tensor z = logits.to(cpu_context());
  for (int64_t i = 0; i < own; ++i)
    for (int sp = 0; sp < 3; ++sp) {
      if (!in.mask[sp][i]) continue;
      for (int64_t cl = 0; cl < classes; ++cl) {
        const bool pred = z.data<float>()[i * classes + cl] > 0.0f;
        const bool truth = g.multi_labels[static_cast<int64_t>(plan.owned[i]) * classes + cl] != 0;
        counts[3 * sp] += pred && truth;
        counts[3 * sp + 1] += pred && !truth;
        counts[3 * sp + 2] += !pred && truth;
      }
    }
  if (c.size() > 1) comm::all_reduce_host(c, ctx, counts, 9, DType::i64);
  std::array<double, 3> out;
  for (int i = 0; i < 3; ++i) {
    const int64_t denom = 2 * counts[3 * i] + counts[3 * i + 1] + counts[3 * i + 2];
    out[i] = !in.total[i] ? -1 : denom ? double(2 * counts[3 * i]) / double(denom) : 1.0;
  }
  return out;
}

std::array<double, 3> accuracy(comm::Communicator& c, DeviceContext& ctx, const WorkerInputs& in, const Tensor& logits) {
  int64_t correct[3];
  for (int i = 0; i < 3; ++i) correct[i] = kernels::count_correct(ctx, logits, in.labels, in.mask_t[i]);
  if (c.size() > 1) comm::all_reduce_host(c, ctx, correct, 3, DType::i64);
  std::array<double, 3> out;
  for (int i = 0; i < 3; ++i) out[i] = in.total[i] ? double(correct[i]) / double(in.total[i]) : -1;
  return out;
}

}  // namespace

std::array<double, 3> split_scores(comm::Communicator& c, DeviceContext& ctx, const Graph& g, const HaloPlan& plan,
                                   const WorkerInputs& in, const Tensor& logits) {
  return in.multi ? f1_micro(c, ctx, g, plan, in, logits) : accuracy(c, ctx, in, logits);
}

}  // namespace mlsys::gnn
