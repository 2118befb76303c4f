#pragma once
// CoOpt's networks on core/nn: a backbone built from an architecture string, optionally followed by
// a linear head. The backbone's output is the network's embedding (priors) or features (students).
//
// Architecture strings:
//   "mlp:512,256"    Linear+ReLU layers of those widths; the features are the last width.
//   "cnn:16,32:256"  per listed channel count: 3x3 conv (pad 1) + ReLU + 2x2 max pool; then a
//                    Linear+ReLU of the width after the second colon (the features).
// Weights are Kaiming uniform (core/nn/init.hpp) drawn from mlsys::Rng(seed) layer by layer, the
// head's from Rng(head seed); biases start at zero. Inputs are [N, C*H*W] rows of images laid
// out (C, H, W), on any device (copied to the network's context when elsewhere); the network runs
// on the DeviceContext it was built on.
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "core/nn/layers.hpp"
#include "dataopt/data/image_set.hpp"

namespace mlsys::dataopt {

class Network {
 public:
  Network() = default;  // no network (e.g. a prior of external embeddings)
  // Throws ConfigError for a malformed architecture string or one the image size cannot hold.
  static Network build(DeviceContext& ctx, const std::string& arch, Geometry input, uint64_t seed);
  void add_head(int64_t out, uint64_t seed);

  // Whole network (backbone + head when present), training mode: caches what backward needs.
  Tensor forward(const Tensor& x);
  // Accumulates the parameter gradients of the last forward (the input gradient is not computed).
  void backward(const Tensor& grad_out);
  // Backbone only, evaluation mode, as a new tensor [N, feature_dim] on the network's context,
  // computed in chunks of `batch` rows starting at multiples of `batch` (each chunk's temporaries
  // stay in cache and are recycled by the pool).
  Tensor features(const Tensor& x, int64_t batch = 128);
  std::vector<nn::Parameter*> parameters();
  void zero_grad();

  bool defined() const { return backbone_ != nullptr; }
  DeviceContext& ctx() const;
  const std::string& arch() const { return arch_; }
  Geometry input() const { return input_; }
  int64_t feature_dim() const { return feature_dim_; }
  bool has_head() const { return head_ != nullptr; }
  int64_t head_dim() const { return head_dim_; }
  int64_t parameter_count();

  // A text header (arch, input, head, weight bytes) then the parameters in core/nn's tensor-blob
  // format (core/nn/state.hpp); see docs/coopt.md.
  void save(std::ostream& out);
  // Throws InputError for a malformed, truncated or mismatched block.
  static Network load(DeviceContext& ctx, std::istream& in, const std::string& where);

 private:
  Tensor as_images(const Tensor& x) const;  // [N, C, H, W] view

  DeviceContext* ctx_ = nullptr;
  std::string arch_;
  Geometry input_;
  std::unique_ptr<nn::Sequential> backbone_;
  std::unique_ptr<nn::Linear> head_;
  int64_t feature_dim_ = 0, head_dim_ = 0;
};

}  // namespace mlsys::dataopt
