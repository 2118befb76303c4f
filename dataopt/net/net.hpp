#pragma once
// A sequential network: a backbone built from an architecture string, optionally followed by a
// linear head. The backbone's output is the network's embedding (priors) or features (students).
//
// Architecture strings:
//   "mlp:512,256"    Linear+ReLU layers of those widths; the features are the last width.
//   "cnn:16,32:256"  per listed channel count: 3x3 conv (pad 1) + ReLU + 2x2 max pool; then a
//                    Linear+ReLU of the width after the second colon (the features).
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "dataopt/net/layers.hpp"

namespace mlsys::dataopt {

class Net {
 public:
  Net() = default;
  // Throws ConfigError for a malformed architecture string.
  static Net build(const std::string& arch, Geometry input, uint64_t seed);
  void add_head(int64_t out, uint64_t seed);

  // Whole network (backbone + head when present).
  Matrix forward(const Matrix& x, bool train);
  void backward(const Matrix& grad_out);
  // Backbone only, evaluation mode, processed in chunks of `batch` rows (small enough that each
  // chunk's temporaries stay in cache and are recycled by the allocator, not mapped afresh).
  Matrix features(const Matrix& x, int64_t batch = 128);
  std::vector<Param*> params();
  void zero_grad();

  const std::string& arch() const { return arch_; }
  Geometry input() const { return input_; }
  int64_t feature_dim() const;
  bool has_head() const { return head_dim_ > 0; }
  int64_t head_dim() const { return head_dim_; }
  int64_t parameter_count();

  // Binary weights (after a text header naming arch, input and head); see docs/coopt.md.
  void save(std::ostream& out);
  static Net load(std::istream& in, const std::string& where);

 private:
  std::string arch_;
  Geometry input_{1, 1, 1};
  std::vector<std::unique_ptr<Layer>> layers_;
  size_t backbone_layers_ = 0;
  int64_t head_dim_ = 0;
};

}  // namespace mlsys::dataopt
