#pragma once
// The `coopt:` config section (declared next to the code that reads it). The struct defaults are
// the quickstart demo: a small pool and small priors that run in seconds. The Fashion-MNIST
// protocol lives in configs/coopt/fashion_mnist.yaml.
#include <cstdint>
#include <string>
#include <vector>

#include "core/config/schema.hpp"
#include "dataopt/data/source.hpp"
#include "dataopt/eval/comparison_methods.hpp"
#include "dataopt/pipeline/plan.hpp"

namespace mlsys::dataopt {

struct CooptOptions {
  std::string mode = "run";  // run | priors | optimize | train | compare
  DataSourceSpec data;  // data.* but digits_csv (declared with the reader: data/source.hpp)
  Plan plan;            // data.digits_csv, pool.*, test_size, priors ... simclr.* (pipeline/plan.hpp)
  // students
  std::string student = "mlp";  // train/run mode: mlp | cnn
  std::string mlp_arch = "mlp:512,256";
  std::string cnn_arch = "cnn:16,32:256";
  double lr = 1e-3;
  int64_t batch = 64;
  int epochs = 2;
  int shift = 2;
  bool flip = true;
  double noise = 0.1;
  // evaluation
  std::vector<int64_t> eval_epochs{1, 2};
  int seeds = 1;
  int labels_per_class = 10;
  std::vector<std::string> methods = comparison_method_names();  // every row of the method table
  std::string central_prior;  // "" -> the reference prior
  std::string eval_on = "test";  // test | validation (train-file rows, for tuning)
  int64_t validation_begin = 0, validation_size = 0;
  int64_t target_epoch = 2;
  double claim_margin = 1.0;  // accuracy points  // time-to-accuracy target: CoOpt aligned's accuracy after this epoch (0: none)
};

const config::Section<CooptOptions>& coopt_section();

}  // namespace mlsys::dataopt
