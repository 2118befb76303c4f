#include "dataopt/model/network.hpp"

#include <istream>
#include <ostream>

#include "core/nn/state.hpp"
#include "core/util/error.hpp"
#include "core/util/number_parse.hpp"
#include "core/util/random.hpp"
#include "core/util/strings.hpp"

namespace mlsys::dataopt {

namespace {

// A layer width of an architecture string ("mlp:256,128"), core/util/number_parse.hpp: "12abc" or
// "2.5" is no width.
constexpr IntRule kWidth{"width", 1, 65536};

std::vector<int> parse_widths(const std::string& text, const std::string& arch) {
  std::vector<int> out;
  for (const std::string& p : split(text, ',')) {
    int64_t v = 0;
    if (parse_number(p, kWidth, v) != NumberProblem::kOk)
      throw ConfigError("architecture '" + arch + "': '" + p + "' is not a width between 1 and 65536");
    out.push_back(static_cast<int>(v));
  }
  if (out.empty()) throw ConfigError("architecture '" + arch + "' lists no widths");
  return out;
}

}  // namespace

Network Network::build(DeviceContext& ctx, const std::string& arch, Geometry input, uint64_t seed) {
  Network net;
  net.ctx_ = &ctx;
  net.arch_ = arch;
  net.input_ = input;
  net.backbone_ = std::make_unique<nn::Sequential>(ctx);
  nn::Sequential& body = *net.backbone_;
  Rng rng(seed);
  const std::vector<std::string> parts = split(arch, ':');
  const std::string kind = parts.empty() ? "" : std::string(trim(parts[0]));
  int64_t width = 0;
  if (kind == "mlp" && parts.size() == 2) {
    int64_t in = input.size();
    for (int w : parse_widths(parts[1], arch)) {
      body.add<nn::Linear>(in, w, nn::KaimingUniform{rng});
      body.add<nn::ReLU>();
      in = width = w;
    }
  } else if (kind == "cnn" && parts.size() == 3) {
    Geometry g = input;
    for (int c : parse_widths(parts[1], arch)) {
      if (g.h < 2 || g.w < 2)
        throw ConfigError("architecture '" + arch + "' pools " + std::to_string(input.h) + "x" + std::to_string(input.w) +
                          " images below 1x1; use fewer conv layers");
      body.add<nn::Conv2d>(g.c, c, 3, 1, 1, nn::KaimingUniform{rng});
      body.add<nn::ReLU>();
      body.add<nn::MaxPool2d>(2);
      g = {c, g.h / 2, g.w / 2};
    }
    const std::vector<int> fc = parse_widths(parts[2], arch);
    if (fc.size() != 1) throw ConfigError("architecture '" + arch + "': give one feature width after the second ':'");
    body.add<nn::Flatten>();
    body.add<nn::Linear>(g.size(), fc[0], nn::KaimingUniform{rng});
    body.add<nn::ReLU>();
    width = fc[0];
  } else {
    throw ConfigError("unknown architecture '" + arch + "' (use e.g. mlp:512,256 or cnn:16,32:256)");
  }
  // The input is data: its gradient is never used, and skipping it saves a third of the first
  // layer's backward.
  body.set_input_grad(false);
  net.feature_dim_ = width;
  return net;
}

void Network::add_head(int64_t out, uint64_t seed) {
  if (has_head()) throw Error("network already has a head");
  Rng rng(seed);
  head_ = std::make_unique<nn::Linear>(ctx(), feature_dim_, out, nn::KaimingUniform{rng});
  for (nn::Parameter* p : head_->parameters()) p->name = "head." + p->name;
  head_dim_ = out;
}

DeviceContext& Network::ctx() const {
  if (!ctx_) throw Error("network used before it was built");
  return *ctx_;
}

Tensor Network::as_images(const Tensor& x) const {
  if (x.row_numel() != input_.size())
    throw Error("network " + arch_ + " expects images of " + std::to_string(input_.size()) + " values, got " + x.str());
  return x.reshape({x.rows(), input_.c, input_.h, input_.w});
}

Tensor Network::forward(const Tensor& x) {
  Tensor h = backbone_->forward(as_images(x.to(ctx())));
  return head_ ? head_->forward(h) : h;
}

void Network::backward(const Tensor& grad_out) {
  backbone_->backward(head_ ? head_->backward(grad_out) : grad_out);
}

Tensor Network::features(const Tensor& x, int64_t batch) {
  Tensor out = Tensor::empty({x.rows(), feature_dim_}, DType::f32, ctx());
  backbone_->train(false);
  for (int64_t b = 0; b < x.rows(); b += batch) {
    const int64_t e = std::min(x.rows(), b + batch);
    out.rows(b, e).copy_from(backbone_->forward(as_images(x.rows(b, e).to(ctx()))));
  }
  backbone_->train(true);
  return out;
}

std::vector<nn::Parameter*> Network::parameters() {
  std::vector<nn::Parameter*> out = backbone_->parameters();
  if (head_)
    for (nn::Parameter* p : head_->parameters()) out.push_back(p);
  return out;
}

void Network::zero_grad() {
  for (nn::Parameter* p : parameters()) p->grad.zero_();
}

int64_t Network::parameter_count() {
  int64_t n = 0;
  for (nn::Parameter* p : parameters()) n += p->value.numel();
  return n;
}

void Network::save(std::ostream& out) {
  const std::vector<uint8_t> blob = nn::save_parameters(parameters());
  out << "arch " << arch_ << "\ninput " << input_.c << " " << input_.h << " " << input_.w << "\nhead " << head_dim_
      << "\nweights " << blob.size() << "\n";
  out.write(reinterpret_cast<const char*>(blob.data()), static_cast<std::streamsize>(blob.size()));
  if (!out) throw Error("failed writing network weights");
}

Network Network::load(DeviceContext& ctx, std::istream& in, const std::string& where) {
  std::string key, arch;
  Geometry g{};
  int64_t head = 0;
  uint64_t bytes = 0;
  if (!(in >> key >> arch) || key != "arch" || !(in >> key >> g.c >> g.h >> g.w) || key != "input" ||
      !(in >> key >> head) || key != "head" || !(in >> key >> bytes) || key != "weights")
    throw InputError(where + ": malformed network header (expected arch/input/head/weights lines)");
  in.get();  // the newline after the weights line
  Network net = build(ctx, arch, g, 0);
  if (head > 0) net.add_head(head, 0);
  std::vector<uint8_t> blob(bytes);
  in.read(reinterpret_cast<char*>(blob.data()), static_cast<std::streamsize>(bytes));
  if (static_cast<uint64_t>(in.gcount()) != bytes)
    throw InputError(where + ": truncated weights (" + std::to_string(in.gcount()) + " of " + std::to_string(bytes) + " bytes)");
  try {
    nn::load_parameters(net.parameters(), blob, ctx);
  } catch (const InputError& e) {
    throw InputError(where + ": " + e.what() + " (architecture " + arch + ")");
  }
  return net;
}

}  // namespace mlsys::dataopt
