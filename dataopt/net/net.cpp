#include "dataopt/net/net.hpp"

#include <cstring>
#include <istream>
#include <ostream>

#include "core/util/error.hpp"
#include "core/util/strings.hpp"

namespace mlsys::dataopt {

namespace {

std::vector<int> parse_widths(const std::string& text, const std::string& arch) {
  std::vector<int> out;
  for (const std::string& p : split(text, ',')) {
    try {
      size_t used = 0;
      const int v = std::stoi(std::string(trim(p)), &used);
      if (v < 1 || v > 65536) throw std::out_of_range("width");
      out.push_back(v);
    } catch (const std::exception&) {
      throw ConfigError("architecture '" + arch + "': '" + p + "' is not a width between 1 and 65536");
    }
  }
  if (out.empty()) throw ConfigError("architecture '" + arch + "' lists no widths");
  return out;
}

}  // namespace

Net Net::build(const std::string& arch, Geometry input, uint64_t seed) {
  Net net;
  net.arch_ = arch;
  net.input_ = input;
  Rng rng(seed);
  std::vector<std::string> parts = split(arch, ':');
  const std::string kind = parts.empty() ? "" : std::string(trim(parts[0]));
  if (kind == "mlp" && parts.size() == 2) {
    int64_t in = input.size();
    for (int w : parse_widths(parts[1], arch)) {
      net.layers_.push_back(std::make_unique<Linear>(in, w, rng));
      net.layers_.push_back(std::make_unique<Relu>(w));
      in = w;
    }
  } else if (kind == "cnn" && parts.size() == 3) {
    Geometry g = input;
    for (int c : parse_widths(parts[1], arch)) {
      auto conv = std::make_unique<Conv3x3>(g, c, 1, rng);
      g = conv->out_geometry();
      net.layers_.push_back(std::move(conv));
      net.layers_.push_back(std::make_unique<Relu>(g.size()));
      auto pool = std::make_unique<MaxPool2>(g);
      g = pool->out_geometry();
      net.layers_.push_back(std::move(pool));
    }
    const std::vector<int> fc = parse_widths(parts[2], arch);
    if (fc.size() != 1) throw ConfigError("architecture '" + arch + "': give one feature width after the second ':'");
    net.layers_.push_back(std::make_unique<Linear>(g.size(), fc[0], rng));
    net.layers_.push_back(std::make_unique<Relu>(fc[0]));
  } else {
    throw ConfigError("unknown architecture '" + arch + "' (use e.g. mlp:512,256 or cnn:16,32:256)");
  }
  net.backbone_layers_ = net.layers_.size();
  return net;
}

void Net::add_head(int64_t out, uint64_t seed) {
  if (has_head()) throw Error("network already has a head");
  Rng rng(seed);
  layers_.push_back(std::make_unique<Linear>(feature_dim(), out, rng));
  head_dim_ = out;
}

int64_t Net::feature_dim() const { return layers_[backbone_layers_ - 1]->out_dim(); }

Matrix Net::forward(const Matrix& x, bool train) {
  Matrix h = x;
  for (auto& l : layers_) h = l->forward(h, train);
  return h;
}

void Net::backward(const Matrix& grad_out) {
  Matrix g = grad_out;
  layers_.front()->set_input_grad(false);
  for (size_t i = layers_.size(); i-- > 0;) g = layers_[i]->backward(g);
}

Matrix Net::features(const Matrix& x, int64_t batch) {
  Matrix out(x.rows, feature_dim());
  for (int64_t b = 0; b < x.rows; b += batch) {
    const int64_t e = std::min(x.rows, b + batch);
    Matrix h(e - b, x.cols);
    std::copy(x.row(b), x.row(b) + (e - b) * x.cols, h.v.data());
    for (size_t i = 0; i < backbone_layers_; ++i) h = layers_[i]->forward(h, false);
    std::copy(h.v.begin(), h.v.end(), out.row(b));
  }
  return out;
}

std::vector<Param*> Net::params() {
  std::vector<Param*> out;
  for (auto& l : layers_)
    for (Param* p : l->params()) out.push_back(p);
  return out;
}

void Net::zero_grad() {
  for (Param* p : params()) std::fill(p->g.begin(), p->g.end(), 0.0f);
}

int64_t Net::parameter_count() {
  int64_t n = 0;
  for (Param* p : params()) n += static_cast<int64_t>(p->w.size());
  return n;
}

void Net::save(std::ostream& out) {
  out << "arch " << arch_ << "\ninput " << input_.c << " " << input_.h << " " << input_.w << "\nhead " << head_dim_
      << "\nweights\n";
  for (Param* p : params()) {
    const uint64_t n = p->w.size();
    out.write(reinterpret_cast<const char*>(&n), sizeof n);
    out.write(reinterpret_cast<const char*>(p->w.data()), static_cast<std::streamsize>(n * sizeof(float)));
  }
  if (!out) throw Error("failed writing network weights");
}

Net Net::load(std::istream& in, const std::string& where) {
  std::string key, arch, word;
  Geometry g{};
  int64_t head = 0;
  if (!(in >> key >> arch) || key != "arch" || !(in >> key >> g.c >> g.h >> g.w) || key != "input" ||
      !(in >> key >> head) || key != "head" || !(in >> word) || word != "weights")
    throw InputError(where + ": malformed network header (expected arch/input/head/weights lines)");
  in.get();  // the newline after "weights"
  Net net = build(arch, g, 0);
  if (head > 0) net.add_head(head, 0);
  for (Param* p : net.params()) {
    uint64_t n = 0;
    in.read(reinterpret_cast<char*>(&n), sizeof n);
    if (!in || n != p->w.size())
      throw InputError(where + ": weight block holds " + std::to_string(n) + " values, architecture " + arch +
                       " needs " + std::to_string(p->w.size()) + " (truncated or mismatched file)");
    in.read(reinterpret_cast<char*>(p->w.data()), static_cast<std::streamsize>(n * sizeof(float)));
    if (!in) throw InputError(where + ": truncated weights");
  }
  return net;
}

}  // namespace mlsys::dataopt
