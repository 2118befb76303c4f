#include "dataopt/train/fit.hpp"

#include <algorithm>

#include "core/nn/layers.hpp"
#include "core/nn/loss.hpp"
#include "core/nn/optimizer.hpp"
#include "core/runtime/run_context.hpp"
#include "core/util/error.hpp"
#include "core/util/random.hpp"
#include "dataopt/math/tensor_ops.hpp"

namespace mlsys::dataopt {

namespace {

// Runs the epochs; `step` gets the batch rows, runs forward and backward and returns the batch loss.
// `params` are what the optimizer updates (the network's, plus e.g. a projection head's).
void loop(DeviceContext& ctx, const std::vector<nn::Parameter*>& params, int64_t n, const FitOptions& opt, Rng& rng,
          const EpochHook& hook, const std::function<double(const std::vector<int64_t>&)>& step) {
  if (n == 0) throw Error("cannot train on an empty set");
  nn::OptimizerOptions oo;
  oo.lr = opt.lr;
  oo.weight_decay = opt.weight_decay;
  const auto adam = nn::make_optimizer(opt.weight_decay > 0 ? "adamw" : "adam", ctx, params, oo);
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
  loop(ctx, net.parameters(), images.rows(), opt, rng, hook, [&](const std::vector<int64_t>& rows) {
    const Tensor x = augmented_batch(ctx, images, net.input(), rows, opt.augment, rng);
    std::vector<int32_t> batch_labels(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) batch_labels[i] = labels[static_cast<size_t>(rows[i])];
    const Tensor y = Tensor::from_vector(batch_labels).to(ctx);
    const double loss = ce.forward(net.forward(x), y);
    net.backward(ce.backward());
    return loss;
  });
}

void fit_denoiser(Network& net, const Tensor& images, const FitOptions& opt, const EpochHook& hook) {
  Rng rng(opt.seed);
  DeviceContext& ctx = net.ctx();
  nn::MseLoss mse(ctx);
  loop(ctx, net.parameters(), images.rows(), opt, rng, hook, [&](const std::vector<int64_t>& rows) {
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
  loop(ctx, net.parameters(), images.rows(), opt, rng, hook, [&](const std::vector<int64_t>& rows) {
    const std::vector<int64_t> both = twice(rows);
    const Tensor views = augmented_batch(ctx, images, net.input(), both, opt.augment, rng);
    const Tensor y = select_rows(ctx, targets, both);
    Tensor w;
    if (row_weight) {
      std::vector<float> wv(both.size());
      for (size_t i = 0; i < both.size(); ++i) wv[i] = (*row_weight)[static_cast<size_t>(both[i])];
      w = Tensor::from_vector(wv).to(ctx);
    }
    const double loss = cosine.forward(net.forward(views), y, w);
    net.backward(cosine.grad_a());
    return loss;
  });
}

void fit_contrastive(Network& net, const Tensor& images, const FitOptions& opt, const SimclrOptions& c,
                     const EpochHook& hook) {
  if (net.has_head()) throw Error("contrastive training: the network must not have a head (the projection head is built here)");
  Rng rng(opt.seed);
  DeviceContext& ctx = net.ctx();
  // The loss sees g(h) = W2 relu(W1 h); the features kept are h (SimCLR's projection head).
  Rng head_rng(derive_seed(opt.seed, 0x9e4d));
  nn::Sequential head(ctx);
  head.add<nn::Linear>(net.feature_dim(), c.hidden, nn::KaimingUniform{head_rng});
  head.add<nn::ReLU>();
  head.add<nn::Linear>(c.hidden, c.dim, nn::KaimingUniform{head_rng});
  std::vector<nn::Parameter*> params = net.parameters();
  for (nn::Parameter* p : head.parameters()) params.push_back(p);
  nn::NtXentLoss nt(ctx, static_cast<float>(c.temperature));
  loop(ctx, params, images.rows(), opt, rng, hook, [&](const std::vector<int64_t>& rows) {
    if (rows.size() < 2) return 0.0;  // a lone image has no negative: nothing to learn from
    const Tensor views = augmented_batch(ctx, images, net.input(), twice(rows), opt.augment, rng);
    const double loss = nt.forward(head.forward(net.forward(views)));
    net.backward(head.backward(nt.backward()));
    return loss;
  });
}

}  // namespace mlsys::dataopt
