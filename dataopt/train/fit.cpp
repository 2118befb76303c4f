#include "dataopt/train/fit.hpp"

#include "core/runtime/run_context.hpp"
#include "core/util/error.hpp"
#include "dataopt/net/adam.hpp"
#include "dataopt/net/losses.hpp"

namespace mlsys::dataopt {

namespace {

// Runs the epochs; `step` gets the batch rows and returns the batch loss.
void loop(Net& net, int64_t n, const FitOptions& opt, Rng& rng, const EpochHook& hook,
          const std::function<double(const std::vector<int64_t>&)>& step) {
  if (n == 0) throw Error("cannot train on an empty set");
  Adam adam(opt.lr, opt.weight_decay);
  auto params = net.params();
  net.zero_grad();
  for (int e = 1; e <= opt.epochs; ++e) {
    const std::vector<int64_t> order = rng.permutation(n);
    double total = 0;
    int64_t batches = 0;
    for (int64_t b = 0; b < n; b += opt.batch) {
      if (RunContext::stop_requested()) throw Error("interrupted");
      std::vector<int64_t> rows(order.begin() + b, order.begin() + std::min(n, b + opt.batch));
      total += step(rows);  // gradients start at zero and Adam::step clears them
      adam.step(params);
      ++batches;
    }
    if (hook && !hook(e, total / static_cast<double>(batches))) break;
  }
}

Matrix stack(const Matrix& a, const Matrix& b) {
  Matrix out(a.rows + b.rows, a.cols);
  std::copy(a.v.begin(), a.v.end(), out.v.begin());
  std::copy(b.v.begin(), b.v.end(), out.v.begin() + static_cast<std::ptrdiff_t>(a.v.size()));
  return out;
}

}  // namespace

void fit_classifier(Net& net, const Matrix& images, const std::vector<int32_t>& labels, const FitOptions& opt,
                    const EpochHook& hook) {
  Rng rng(opt.seed);
  loop(net, images.rows, opt, rng, hook, [&](const std::vector<int64_t>& rows) {
    Matrix x = augmented_batch(images, net.input(), rows, opt.augment, rng);
    std::vector<int32_t> y;
    for (int64_t r : rows) y.push_back(labels[static_cast<size_t>(r)]);
    Matrix grad;
    const double loss = softmax_cross_entropy(net.forward(x, true), y, grad);
    net.backward(grad);
    return loss;
  });
}

void fit_denoiser(Net& net, const Matrix& images, const FitOptions& opt, const EpochHook& hook) {
  Rng rng(opt.seed);
  loop(net, images.rows, opt, rng, hook, [&](const std::vector<int64_t>& rows) {
    Matrix c1, c2;
    Matrix v1 = augmented_batch(images, net.input(), rows, opt.augment, rng, &c1);
    Matrix v2 = augmented_batch(images, net.input(), rows, opt.augment, rng, &c2);
    Matrix grad;
    const double loss = mean_squared_error(net.forward(stack(v1, v2), true), stack(c1, c2), grad);
    net.backward(grad);
    return loss;
  });
}

void fit_student(Net& net, const Matrix& images, const Matrix& targets, const FitOptions& opt, const EpochHook& hook,
                 const std::vector<float>* row_weight) {
  if (targets.rows != images.rows) throw Error("student: targets and images differ in count");
  if (row_weight && static_cast<int64_t>(row_weight->size()) != images.rows)
    throw Error("student: one weight per image expected");
  std::vector<float> w;
  Rng rng(opt.seed);
  loop(net, images.rows, opt, rng, hook, [&](const std::vector<int64_t>& rows) {
    Matrix v1 = augmented_batch(images, net.input(), rows, opt.augment, rng);
    Matrix v2 = augmented_batch(images, net.input(), rows, opt.augment, rng);
    Matrix y = targets.select_rows(rows);
    Matrix grad;
    if (row_weight) {
      w.resize(2 * rows.size());
      for (size_t i = 0; i < rows.size(); ++i) w[i] = w[i + rows.size()] = (*row_weight)[static_cast<size_t>(rows[i])];
    }
    const double loss = cosine_loss(net.forward(stack(v1, v2), true), stack(y, y), grad, row_weight ? &w : nullptr);
    net.backward(grad);
    return loss;
  });
}

}  // namespace mlsys::dataopt
