#include "dataopt/net/adam.hpp"

#include <cmath>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace mlsys::dataopt {

namespace {

struct Coeffs {
  float b1, b2, c1, c2, lr, eps, decay;
};

// One element, exactly as the vector path computes it (IEEE sqrt and division round the same way
// in scalar and packed form, and nothing is contracted into FMAs on baseline x86-64).
inline void update(float& w, float& g, float& m, float& v, const Coeffs& k) {
  m = k.b1 * m + (1 - k.b1) * g;
  v = k.b2 * v + (1 - k.b2) * g * g;
  w = w * k.decay - k.lr * (m * k.c1) / (std::sqrt(v * k.c2) + k.eps);
  g = 0;
}

// The update over one parameter, clearing its gradient. std::sqrt keeps the compiler from
// vectorizing (errno), and this loop is memory-bound over every weight each step, so the x86
// path is written with SSE: it made Adam 4x cheaper, about a fifth of a student's training time.
void update_all(float* __restrict w, float* __restrict g, float* __restrict m, float* __restrict v, size_t n,
                const Coeffs& k) {
  size_t i = 0;
#if defined(__SSE2__)
  const __m128 b1 = _mm_set1_ps(k.b1), nb1 = _mm_set1_ps(1 - k.b1), b2 = _mm_set1_ps(k.b2), nb2 = _mm_set1_ps(1 - k.b2);
  const __m128 c1 = _mm_set1_ps(k.c1), c2 = _mm_set1_ps(k.c2), lr = _mm_set1_ps(k.lr), eps = _mm_set1_ps(k.eps);
  const __m128 decay = _mm_set1_ps(k.decay), zero = _mm_setzero_ps();
  for (; i + 4 <= n; i += 4) {
    const __m128 gi = _mm_loadu_ps(g + i);
    const __m128 mi = _mm_add_ps(_mm_mul_ps(b1, _mm_loadu_ps(m + i)), _mm_mul_ps(nb1, gi));
    const __m128 vi = _mm_add_ps(_mm_mul_ps(b2, _mm_loadu_ps(v + i)), _mm_mul_ps(_mm_mul_ps(nb2, gi), gi));
    const __m128 step = _mm_div_ps(_mm_mul_ps(lr, _mm_mul_ps(mi, c1)), _mm_add_ps(_mm_sqrt_ps(_mm_mul_ps(vi, c2)), eps));
    _mm_storeu_ps(w + i, _mm_sub_ps(_mm_mul_ps(_mm_loadu_ps(w + i), decay), step));
    _mm_storeu_ps(m + i, mi);
    _mm_storeu_ps(v + i, vi);
    _mm_storeu_ps(g + i, zero);
  }
#endif
  for (; i < n; ++i) update(w[i], g[i], m[i], v[i], k);
}

}  // namespace

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
  Coeffs k;
  k.c1 = static_cast<float>(1.0 / (1.0 - std::pow(b1_, static_cast<double>(t_))));
  k.c2 = static_cast<float>(1.0 / (1.0 - std::pow(b2_, static_cast<double>(t_))));
  k.lr = static_cast<float>(lr_), k.b1 = static_cast<float>(b1_), k.b2 = static_cast<float>(b2_);
  k.eps = static_cast<float>(eps_), k.decay = static_cast<float>(1.0 - lr_ * wd_);
  for (size_t p = 0; p < params.size(); ++p)
    update_all(params[p]->w.data(), params[p]->g.data(), m_[p].data(), v_[p].data(), params[p]->w.size(), k);
}

}  // namespace mlsys::dataopt
