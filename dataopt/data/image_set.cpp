#include "dataopt/data/image_set.hpp"

#include <algorithm>

#include "core/util/error.hpp"

namespace mlsys::dataopt {

ImageSet ImageSet::subset(const std::vector<int64_t>& rows) const {
  ImageSet out;
  out.n = static_cast<int64_t>(rows.size());
  out.channels = channels;
  out.height = height;
  out.width = width;
  out.classes = classes;
  out.source = source;
  const int64_t d = dim();
  out.pixels.resize(static_cast<size_t>(out.n * d));
  if (labeled()) out.labels.resize(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    const int64_t r = rows[i];
    if (r < 0 || r >= n) throw Error("subset row " + std::to_string(r) + " out of range for " + source);
    std::copy_n(image(r), d, out.pixels.data() + static_cast<int64_t>(i) * d);
    if (labeled()) out.labels[i] = labels[static_cast<size_t>(r)];
  }
  return out;
}

void ImageSet::set_labels(std::vector<int32_t> l) {
  labels = std::move(l);
  classes = labels.empty() ? 0 : 1 + *std::max_element(labels.begin(), labels.end());
}

void ImageSet::validate() const {
  if (channels <= 0 || height <= 0 || width <= 0)
    throw InputError(source + ": image geometry " + std::to_string(channels) + "x" + std::to_string(height) + "x" +
                     std::to_string(width) + " is not positive");
  if (static_cast<int64_t>(pixels.size()) != n * dim())
    throw InputError(source + ": holds " + std::to_string(pixels.size()) + " pixel values, expected " +
                     std::to_string(n * dim()));
  if (labeled() && static_cast<int64_t>(labels.size()) != n)
    throw InputError(source + ": " + std::to_string(labels.size()) + " labels for " + std::to_string(n) + " images");
}

ImageSet concat(const std::vector<const ImageSet*>& parts) {
  if (parts.empty()) return {};
  ImageSet out;
  const ImageSet& a = *parts.front();
  out.channels = a.channels;
  out.height = a.height;
  out.width = a.width;
  out.source = a.source;
  bool labeled = true;
  for (const ImageSet* p : parts) {
    if (p->channels != a.channels || p->height != a.height || p->width != a.width)
      throw Error("cannot concatenate " + p->source + " with " + a.source + ": image sizes differ");
    labeled = labeled && p->labeled();
  }
  for (const ImageSet* p : parts) {
    out.n += p->n;
    out.pixels.insert(out.pixels.end(), p->pixels.begin(), p->pixels.end());
    if (labeled) out.labels.insert(out.labels.end(), p->labels.begin(), p->labels.end());
  }
  if (labeled) out.set_labels(std::move(out.labels));
  return out;
}

ImageSet resize_images(const ImageSet& s, int height, int width) {
  if (height < 1 || width < 1) throw Error("resize: target size must be positive");
  ImageSet out;
  out.n = s.n;
  out.channels = s.channels;
  out.height = height;
  out.width = width;
  out.labels = s.labels;
  out.classes = s.classes;
  out.source = s.source;
  out.pixels.resize(static_cast<size_t>(out.n * out.dim()));
  const double fy = static_cast<double>(s.height) / height, fx = static_cast<double>(s.width) / width;
  for (int64_t i = 0; i < s.n; ++i)
    for (int c = 0; c < s.channels; ++c) {
      const float* src = s.image(i) + static_cast<int64_t>(c) * s.height * s.width;
      float* dst = out.pixels.data() + i * out.dim() + static_cast<int64_t>(c) * height * width;
      for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
          // Pixel centres map onto the source grid (align_corners = false).
          const double sy = std::clamp((y + 0.5) * fy - 0.5, 0.0, s.height - 1.0);
          const double sx = std::clamp((x + 0.5) * fx - 0.5, 0.0, s.width - 1.0);
          const int y0 = static_cast<int>(sy), x0 = static_cast<int>(sx);
          const int y1 = std::min(y0 + 1, s.height - 1), x1 = std::min(x0 + 1, s.width - 1);
          const double ay = sy - y0, ax = sx - x0;
          const double v = (1 - ay) * ((1 - ax) * src[y0 * s.width + x0] + ax * src[y0 * s.width + x1]) +
                           ay * ((1 - ax) * src[y1 * s.width + x0] + ax * src[y1 * s.width + x1]);
          dst[y * width + x] = static_cast<float>(v);
        }
    }
  return out;
}

}  // namespace mlsys::dataopt
