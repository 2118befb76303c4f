#pragma once
// Training loops shared by priors and students: minibatch Adam over shuffled rows, one seeded Rng
// per run so results are reproducible.
#include <cstdint>
#include <functional>
#include <vector>

#include "dataopt/net/net.hpp"
#include "dataopt/train/augment.hpp"

namespace mlsys::dataopt {

struct FitOptions {
  int epochs = 1;
  int64_t batch = 64;
  double lr = 1e-3;
  double weight_decay = 0;
  uint64_t seed = 1;
  AugmentOptions augment;
};

// Called after each epoch (1-based); returning false stops training.
using EpochHook = std::function<bool(int epoch, double mean_loss)>;

// Supervised: the net must have a head with one output per class.
void fit_classifier(Net& net, const Matrix& images, const std::vector<int32_t>& labels, const FitOptions& opt,
                    const EpochHook& hook = {});
// Denoising autoencoder: the head reconstructs the clean view from the noisy one (MSE).
void fit_denoiser(Net& net, const Matrix& images, const FitOptions& opt, const EpochHook& hook = {});
// CoOpt student: cosine loss between the head's output and the (standardized) target, on two
// augmented views of each image per step; with `row_weight`, image i's loss counts row_weight[i] times.
void fit_student(Net& net, const Matrix& images, const Matrix& targets, const FitOptions& opt,
                 const EpochHook& hook = {}, const std::vector<float>* row_weight = nullptr);

}  // namespace mlsys::dataopt
