#include "dataopt/options.hpp"

#include "core/runtime/command.hpp"

namespace mlsys::dataopt {

const config::Section<CooptOptions>& coopt_section() {
  static const config::Section<CooptOptions> s("coopt", "CoOpt: collaborative optimization of unlabeled data", [](auto& s) {
    s.field("mode", &CooptOptions::mode, "What to run (the first word after `coopt`)")
        .choices_described([] { return mode_choices("coopt"); });
    s.nest("data", &CooptOptions::data, data_source_section());
    s.nest("", &CooptOptions::plan, plan_section());
    s.field("student.kind", &CooptOptions::student, "Student trained by run/train modes").choices({"mlp", "cnn"});
    s.field("student.mlp_arch", &CooptOptions::mlp_arch, "MLP student architecture (mlp:w1,w2,...)");
    s.field("student.cnn_arch", &CooptOptions::cnn_arch, "CNN student architecture (cnn:c1,c2,...:features)");
    s.field("student.lr", &CooptOptions::lr, "Adam learning rate").range(1e-6, 1);
    s.field("student.batch", &CooptOptions::batch, "Images per step (each gives two augmented views)").range(1, 65536);
    s.field("student.epochs", &CooptOptions::epochs, "Training epochs (compare: at least the largest eval epoch)").range(1, 1000);
    s.field("student.shift", &CooptOptions::shift, "Random shift/crop of up to this many pixels").range(0, 16);
    s.field("student.flip", &CooptOptions::flip, "Random horizontal flips (off for digits/text)");
    s.field("student.noise", &CooptOptions::noise, "Std of the Gaussian pixel noise of each view").range(0, 10);
    s.field("eval.epochs", &CooptOptions::eval_epochs, "Epochs after which the frozen student is probed").range(1, 1000);
    s.field("eval.seeds", &CooptOptions::seeds, "Seeds (run.seed, +1, ...) averaged in compare mode").range(1, 100);
    s.field("eval.labels_per_class", &CooptOptions::labels_per_class, "Labeled pool images per class of the few-label probe").range(1, 100000);
    s.field("eval.methods", &CooptOptions::methods, "Rows of the comparison").choices_described([] {
      std::vector<config::Choice> out;
      for (const ComparisonMethod& m : comparison_methods()) out.push_back({m.name, m.description});
      return out;
    });
    s.field("eval.central_prior", &CooptOptions::central_prior,
            "Prior applied centrally to the whole pool for the upper reference (\"\": the reference prior)");
    s.field("eval.on", &CooptOptions::eval_on,
            "Images the probe is scored on: test (the test file) or validation (train-file rows eval.validation.*, "
            "for tuning without touching the test file)")
        .choices({"test", "validation"});
    s.field("eval.validation.begin", &CooptOptions::validation_begin, "First train-file row of the validation split").min(0);
    s.field("eval.validation.size", &CooptOptions::validation_size, "Rows of the validation split (eval.on: validation)").min(0);
    s.field("eval.target_epoch", &CooptOptions::target_epoch,
            "Time-to-accuracy target: CoOpt aligned's few-label accuracy after this epoch; each row reports the first "
            "probe epoch (and training time) reaching it (0: no target)")
        .range(0, 1000);
    s.field("eval.claim_margin", &CooptOptions::claim_margin,
            "Smallest mean gain over seeds, in accuracy points (few labels, last probe epoch), for a claim of the "
            "comparison (aligned beats unaligned, SimCLR beats random init) to hold; it must also exceed its sd")
        .range(0, 100);
  });
  return s;
}

}  // namespace mlsys::dataopt
