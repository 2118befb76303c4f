#pragma once
// Training loops shared by priors and students: minibatch Adam (core/nn) over shuffled rows, one
// seeded mlsys::Rng per run for the order and the augmentations, so results are reproducible.
#include <cstdint>
#include <functional>
#include <vector>

#include "dataopt/model/network.hpp"
#include "dataopt/train/augment.hpp"
#include "dataopt/train/simclr_options.hpp"

namespace mlsys::dataopt {

struct FitOptions {
  int epochs = 1;
  int64_t batch = 64;
  double lr = 1e-3;
  double weight_decay = 0;  // > 0: AdamW (decoupled decay)
  uint64_t seed = 1;
  AugmentOptions augment;
};


// Called after each epoch (1-based); returning false stops training.
using EpochHook = std::function<bool(int epoch, double mean_loss)>;

// Images are host tensors [N, C*H*W] in the network's geometry; the network trains on its context.
// Supervised: the net must have a head with one output per class.
void fit_classifier(Network& net, const Tensor& images, const std::vector<int32_t>& labels, const FitOptions& opt,
                    const EpochHook& hook = {});
// Denoising autoencoder: the head reconstructs the clean view from the noisy one (MSE), on two
// augmented views of each image per step.
void fit_denoiser(Network& net, const Tensor& images, const FitOptions& opt, const EpochHook& hook = {});
// SimCLR (Chen et al. 2020) on the network's features: a projection head (Linear feature_dim ->
// c.hidden, ReLU, Linear -> c.dim) built here and dropped after, and the NT-Xent loss with
// c.temperature over two augmented views of each image of a batch (the other 2B - 2 views are
// the negatives). The net must have no head. Views come from opt.augment (SimCLR depends on
// strong augmentations: give it a random resized crop and jitter, see simclr_augment()).
void fit_contrastive(Network& net, const Tensor& images, const FitOptions& opt, const SimclrOptions& c,
                     const EpochHook& hook = {});
// CoOpt student: cosine loss between the head's output and the (standardized) target [N, n], on two
// augmented views of each image per step; with `row_weight`, image i's loss counts row_weight[i] times.
void fit_student(Network& net, const Tensor& images, const Tensor& targets, const FitOptions& opt,
                 const EpochHook& hook = {}, const std::vector<float>* row_weight = nullptr);

}  // namespace mlsys::dataopt
