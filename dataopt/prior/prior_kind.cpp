#include "dataopt/prior/prior_kind.hpp"

#include <yaml-cpp/yaml.h>

#include <set>

#include "core/util/error.hpp"
#include "dataopt/data/image_file.hpp"

namespace mlsys::dataopt {

PriorKindRegistry& prior_kind_registry() {
  static PriorKindRegistry r("prior kind");
  return r;
}

std::string PriorSpec::fingerprint() const {
  return kind + "|" + arch + "|" + std::to_string(rows_begin) + "-" + std::to_string(rows_end) + "|" + labels + "|" +
         dataset + "|" + split + "|" + label_file + "|" + path + "|" + std::to_string(epochs) + "|" + std::to_string(lr) +
         "|" + std::to_string(batch);
}

std::string default_priors_yaml() {
  // Quickstart sizes: train rows below the default pool [4000, 6000). The Fashion-MNIST protocol
  // (configs/coopt/fashion_mnist.yaml) uses a 10k strong prior and a larger pool.
  return R"([
  {name: strong, kind: supervised, arch: "mlp:256,128", rows: [0, 2000], labels: fine, epochs: 3},
  {name: coarse, kind: supervised, arch: "cnn:8:64", rows: [2000, 2500], labels: coarse, epochs: 1},
  {name: dae, kind: dae, arch: "mlp:96", rows: [2500, 3500], epochs: 1},
  {name: random, kind: random, arch: "cnn:8,16:128"}
])";
}

std::vector<PriorSpec> parse_prior_specs(const config::YamlValue& value) {
  YAML::Node root = value.node;
  std::string file = value.file;
  if (!root || root.IsNull()) {
    root = YAML::Load(default_priors_yaml());
    file = "<default coopt.priors>";
  }
  config::YamlValue ctx{root, file};
  if (!root.IsSequence() || root.size() == 0)
    throw ConfigError(ctx.where(root) + ": coopt.priors must be a non-empty list of {name, kind, ...} maps");
  std::vector<PriorSpec> out;
  std::set<std::string> names;
  static const std::set<std::string> known{"name",       "kind", "arch", "rows",   "labels", "dataset",
                                           "split",      "path", "epochs", "lr",   "batch",  "label_file"};
  for (const YAML::Node& n : root) {
    const std::string where = ctx.where(n);
    if (!n.IsMap()) throw ConfigError(where + ": each prior must be a map with at least name and kind");
    PriorSpec s;
    s.where = where;
    try {
      for (const auto& kv : n) {
        const std::string key = kv.first.as<std::string>();
        if (!known.count(key))
          throw ConfigError(ctx.where(kv.first) + ": unknown prior key '" + key +
                             "' (valid: name, kind, arch, rows, labels, dataset, split, label_file, path, epochs, lr, batch)");
      }
      if (!n["name"] || !n["kind"]) throw ConfigError(where + ": a prior needs 'name' and 'kind'");
      s.name = n["name"].as<std::string>();
      s.kind = n["kind"].as<std::string>();
      if (n["arch"]) s.arch = n["arch"].as<std::string>();
      if (n["rows"]) {
        if (!n["rows"].IsSequence() || n["rows"].size() != 2)
          throw ConfigError(ctx.where(n["rows"]) + ": rows must be [begin, end) of the train file");
        s.rows_begin = n["rows"][0].as<int64_t>();
        s.rows_end = n["rows"][1].as<int64_t>();
        if (s.rows_begin < 0 || s.rows_end <= s.rows_begin)
          throw ConfigError(ctx.where(n["rows"]) + ": rows must satisfy 0 <= begin < end");
      }
      if (n["labels"]) s.labels = n["labels"].as<std::string>();
      if (n["dataset"]) s.dataset = n["dataset"].as<std::string>();
      if (n["split"]) s.split = n["split"].as<std::string>();
      if (n["label_file"]) s.label_file = n["label_file"].as<std::string>();
      if (n["path"]) s.path = n["path"].as<std::string>();
      if (n["epochs"]) s.epochs = n["epochs"].as<int>();
      if (n["lr"]) s.lr = n["lr"].as<double>();
      if (n["batch"]) s.batch = n["batch"].as<int64_t>();
    } catch (const YAML::Exception& e) {
      throw ConfigError(where + ": bad value in prior entry (" + e.msg + ")");
    }
    if (!prior_kind_registry().contains(s.kind)) throw ConfigError(where + ": " + prior_kind_registry().unknown_message(s.kind));
    if (s.labels != "fine" && s.labels != "coarse") throw ConfigError(where + ": labels must be fine or coarse");
    if (s.dataset.empty()) throw ConfigError(where + ": dataset must be target, digits or the path of an image dataset");
    if (s.split != "train" && s.split != "test") throw ConfigError(where + ": split must be train or test");
    if (s.target_data() && !s.label_file.empty())
      throw ConfigError(where + ": label_file applies to .npy datasets, not to the target dataset");
    if (s.epochs < 0 || s.epochs > 1000 || s.batch < 1 || !(s.lr > 0))
      throw ConfigError(where + ": epochs must be in [0, 1000], batch >= 1 and lr > 0");
    if (!names.insert(s.name).second) throw ConfigError(where + ": duplicate prior name '" + s.name + "'");
    out.push_back(s);
  }
  return out;
}

namespace {

// The dataset file of a non-target spec ("digits" names coopt.data.digits_csv).
ImageFileSpec image_file_of(const PriorSpec& s, const PriorBuildContext& ctx) {
  ImageFileSpec f;
  if (s.dataset == "digits") {
    if (ctx.digits_csv.empty())
      throw ConfigError(s.where + ": prior '" + s.name + "' has dataset: digits but coopt.data.digits_csv is empty; set it "
                        "to the sklearn digits CSV (e.g. $MLSYS_DATA_DIR/images/sklearn_digits/digits.csv.gz) or give the "
                        "path as dataset");
    f.path = ctx.digits_csv;
  } else {
    f.path = s.dataset;
  }
  f.split = s.split;
  f.labels = s.label_file;
  return f;
}

}  // namespace

ImageSet prior_training_set(const PriorSpec& s, const PriorBuildContext& ctx, bool labeled) {
  ImageSet data;
  if (s.target_data()) {
    if (s.rows_end <= s.rows_begin)
      throw ConfigError(s.where + ": " + s.kind + " prior '" + s.name + "' on the target dataset needs rows: [begin, end]");
    data = ctx.data->train_rows(s.rows_begin, s.rows_end);
  } else {
    const ImageFileSpec f = image_file_of(s, ctx);
    if (!std::filesystem::exists(f.path))
      throw ConfigError(s.where + ": prior '" + s.name + "': dataset " + f.path.string() + " not found");
    data = read_image_file(f);
    if (s.rows_end > s.rows_begin) {
      if (s.rows_end > data.n)
        throw ConfigError(s.where + ": prior '" + s.name + "' rows [" + std::to_string(s.rows_begin) + ", " +
                          std::to_string(s.rows_end) + ") exceed the " + std::to_string(data.n) + " images of " +
                          f.path.string());
      std::vector<int64_t> rows;
      for (int64_t i = s.rows_begin; i < s.rows_end; ++i) rows.push_back(i);
      data = data.subset(rows);
    }
    if (data.channels != ctx.channels)
      throw InputError(f.path.string() + ": " + std::to_string(data.channels) + "-channel images, the target's have " +
                       std::to_string(ctx.channels));
    if (data.height != ctx.height || data.width != ctx.width) data = resize_images(data, ctx.height, ctx.width);
  }
  if (labeled && !data.labeled())
    throw ConfigError(s.where + ": " + s.kind + " prior '" + s.name + "' needs labels, and its dataset has none" +
                      (s.target_data() ? std::string() : " (a .npy dataset takes them from label_file)"));
  if (data.n < 2) throw InputError(s.where + ": prior '" + s.name + "' has fewer than 2 training images");
  return data;
}

std::vector<std::filesystem::path> prior_input_files(const PriorSpec& s, const PriorBuildContext& ctx) {
  std::vector<std::filesystem::path> out;
  if (!s.path.empty()) out.push_back(s.path);  // a saved prior or external embeddings
  if (s.kind == "supervised" || s.kind == "dae" || s.kind == "simclr")
    if (!s.target_data())
      for (const auto& f : image_file_inputs(image_file_of(s, ctx))) out.push_back(f);
  return out;
}

std::string describe_training_set(const PriorSpec& s, const ImageSet& data) {
  std::string where = s.target_data() ? "target train rows " + std::to_string(s.rows_begin) + "-" + std::to_string(s.rows_end)
                                      : data.source;
  if (!s.target_data() && s.rows_end > s.rows_begin)
    where += " rows " + std::to_string(s.rows_begin) + "-" + std::to_string(s.rows_end);
  return std::to_string(data.n) + " images of " + where;
}

std::vector<int32_t> coarse_labels(const std::vector<int32_t>& labels, int classes) {
  static const int32_t kFashion[10] = {0, 1, 0, 0, 0, 2, 0, 2, 3, 2};
  std::vector<int32_t> out(labels.size());
  for (size_t i = 0; i < labels.size(); ++i)
    out[i] = classes == 10 ? kFashion[labels[i]] : labels[i] * 4 / std::max(classes, 1);
  return out;
}

}  // namespace mlsys::dataopt
