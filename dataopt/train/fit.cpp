#include "dataopt/train/fit.hpp"

#include <algorithm>

#include "core/nn/loss.hpp"
#include "core/nn/optimizer.hpp"
#include "core/runtime/run_context.hpp"
#include "core/util/error.hpp"
#include "dataopt/math/tensor_ops.hpp"

namespace mlsys::dataopt {

namespace {

// Runs the epochs; `step` gets the batch rows, runs forward and backward and returns the batch loss.
void loop(Network& net, int64_t n, const FitOptions& opt, Rng& rng, const EpochHook& hook,
          const std::function<double(const std::vector<int64_t>&)>& step) {
  if (n == 0) throw Error("cannot train on an empty set");
  nn::OptimizerOptions oo;
  oo.lr = opt.lr;
  oo.weight_decay = opt.weight_decay;
  const auto adam = nn::make_optimizer(opt.weight_decay > 0 ? "adamw" : "adam", net.ctx(), net.parameters(), oo);
  adam->zero_grad();
  for (int e = 1; e <= opt.epochs; ++e) {
    const std::vector<int64_t> order = rng.permutation(n);
    double total = 0;
    int64_t batches = 0;
    for (int64_t b = 0; b < n; b += opt.batch) {
      if (RunContext::stop_requested()) throw Error("interrupted");
      const std::vector<int64_t> rows(order.begin() + b, order.begin() + std::min(n, b + opt.batch));
      total += step(rows);
      adam->step();
      adam->zero_grad();
      ++batches;
    }
    if (hook && !hook(e, total / static_cast<double>(batches))) break;
  }
}

// The batch rows twice: one call draws both augmented views of every image, view 1 then view 2.
std::vector<int64_t> twice(const std::vector<int64_t>& rows) {
  std::vector<int64_t> out(rows);
  out.insert(out.end(), rows.begin(), rows.end());
  return out;
}

}  // namespace

void fit_classifier(Network& net, const Tensor& images, const std::vector<int32_t>& labels, const FitOptions& opt,
                    const EpochHook& hook) {
  if (static_cast<int64_t>(labels.size()) != images.rows()) throw Error("classifier: label count differs from image count");
  Rng rng(opt.seed);
  DeviceContext& ctx = net.ctx();
  nn::CrossEntropyLoss ce(ctx);
  loop(net, images.rows(), opt, rng, hook, [&](const std::vector<int64_t>& rows) {
    const Tensor x = augmented_batch(ctx, images, net.input(), rows, opt.augment, rng);
    const Tensor y = Tensor::empty({static_cast<int64_t>(rows.size())}, DType::i32, ctx);
    for (size_t i = 0; i < rows.size(); ++i) y.data<int32_t>()[i] = labels[static_cast<size_t>(rows[i])];
    const double loss = ce.forward(net.forward(x), y);
    net.backward(ce.backward());
    return loss;
  });
}

void fit_denoiser(Network& net, const Tensor& images, const FitOptions& opt, const EpochHook& hook) {
  Rng rng(opt.seed);
  DeviceContext& ctx = net.ctx();
  nn::MseLoss mse(ctx);
  loop(net, images.rows(), opt, rng, hook, [&](const std::vector<int64_t>& rows) {
    Tensor clean;
    const Tensor views = augmented_batch(ctx, images, net.input(), twice(rows), opt.augment, rng, &clean);
    const double loss = mse.forward(net.forward(views), clean);
    net.backward(mse.backward());
    return loss;
  });
}

void fit_student(Network& net, const Tensor& images, const Tensor& targets, const FitOptions& opt, const EpochHook& hook,
                 const std::vector<float>* row_weight) {
  if (targets.rows() != images.rows()) throw Error("student: targets and images differ in count");
  if (row_weight && static_cast<int64_t>(row_weight->size()) != images.rows())
    throw Error("student: one weight per image expected");
  Rng rng(opt.seed);
  DeviceContext& ctx = net.ctx();
  nn::CosineSimilarityLoss cosine(ctx, 1e-12f);
  loop(net, images.rows(), opt, rng, hook, [&](const std::vector<int64_t>& rows) {
    const std::vector<int64_t> both = twice(rows);
    const Tensor views = augmented_batch(ctx, images, net.input(), both, opt.augment, rng);
    const Tensor y = select_rows(ctx, targets, both);
    Tensor w;
    if (row_weight) {
      w = Tensor::empty({static_cast<int64_t>(both.size())}, DType::f32, ctx);
      for (size_t i = 0; i < both.size(); ++i) w.data<float>()[i] = (*row_weight)[static_cast<size_t>(both[i])];
    }
    const double loss = cosine.forward(net.forward(views), y, w);
    net.backward(cosine.grad_a());
    return loss;
  });
}

}  // namespace mlsys::dataopt
