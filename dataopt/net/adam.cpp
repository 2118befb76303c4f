#include "dataopt/net/adam.hpp"

#include <cmath>

namespace mlsys::dataopt {

void Adam::step(const std::vector<Param*>& params) {
  if (m_.size() != params.size()) {
    m_.clear();
    v_.clear();
    for (Param* p : params) {
      m_.emplace_back(p->w.size(), 0.0f);
      v_.emplace_back(p->w.size(), 0.0f);
    }
  }
  ++t_;
  const auto c1 = static_cast<float>(1.0 / (1.0 - std::pow(b1_, static_cast<double>(t_))));
  const auto c2 = static_cast<float>(1.0 / (1.0 - std::pow(b2_, static_cast<double>(t_))));
  const auto lr = static_cast<float>(lr_), b1 = static_cast<float>(b1_), b2 = static_cast<float>(b2_);
  const auto eps = static_cast<float>(eps_), decay = static_cast<float>(1.0 - lr_ * wd_);
  for (size_t k = 0; k < params.size(); ++k) {
    std::vector<float>& w = params[k]->w;
    const std::vector<float>& g = params[k]->g;
    std::vector<float>& m = m_[k];
    std::vector<float>& v = v_[k];
    for (size_t i = 0; i < w.size(); ++i) {
      m[i] = b1 * m[i] + (1 - b1) * g[i];
      v[i] = b2 * v[i] + (1 - b2) * g[i] * g[i];
      w[i] = w[i] * decay - lr * (m[i] * c1) / (std::sqrt(v[i] * c2) + eps);
    }
  }
}

}  // namespace mlsys::dataopt
