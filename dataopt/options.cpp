#include "dataopt/options.hpp"

#include "dataopt/command.hpp"

namespace mlsys::dataopt {

const config::Section<CooptOptions>& coopt_section() {
  static const config::Section<CooptOptions> s("coopt", "CoOpt: collaborative optimization of unlabeled data", [](auto& s) {
    s.field("mode", &CooptOptions::mode, "What to run (the first word after `coopt`)")
        .choices_described([] { return mode_choices(coopt_command()); });
    s.field("data.source", &CooptOptions::data_source, "auto (IDX folder when present, else synthetic), idx or synthetic")
        .choices({"auto", "idx", "synthetic"});
    s.field("data.dir", &CooptOptions::data_dir, "IDX dataset folder (train-/t10k- images and labels, gzipped or not)");
    s.field("data.cache_dir", &CooptOptions::data_cache_dir,
            "Folder for uncompressed copies of gzipped IDX image files, made once on first use, so each rank reads "
            "only its rows (\"\": read the .gz, inflating it up to the last row needed)");
    s.field("data.synthetic_train", &CooptOptions::synthetic_train, "Synthetic train images").range(10, 1e7);
    s.field("data.synthetic_test", &CooptOptions::synthetic_test, "Synthetic test images").range(10, 1e7);
    s.field("data.synthetic_shift", &CooptOptions::synthetic_shift,
            "Synthetic images: largest offset of a sample from its class prototype, pixels per axis (larger: harder)")
        .range(0, 14);
    s.field("data.synthetic_noise", &CooptOptions::synthetic_noise, "Synthetic images: sd of the Gaussian pixel noise")
        .range(0, 2);
    s.field("data.digits_csv", &CooptOptions::digits_csv,
            "sklearn digits CSV read by priors with dataset: digits (\"\": none; such a prior is then an error)");
    s.field("pool.begin", &CooptOptions::pool_begin, "First train-file row of the unlabeled pool D").min(0);
    s.field("pool.size", &CooptOptions::pool_size, "Images in the pool D (split into one contiguous shard per prior)").range(4, 1e8);
    s.field("test_size", &CooptOptions::test_size, "Test images for the probe (0: the whole test file)").min(0);
    s.field("priors", &CooptOptions::priors,
            "Participants: list of {name, kind, arch, dataset, split, label_file, rows, labels, path, epochs, lr, batch} "
            "(see docs/coopt.md); empty: the 4 quickstart priors");
    s.field("priors_dir", &CooptOptions::priors_dir, "Cache of trained priors (\"\": <out>/priors)");
    s.field("dataset_dir", &CooptOptions::dataset_dir, "Optimized dataset folder (\"\": <out>/optimized)");
    s.field("align.fraction", &CooptOptions::align_fraction, "Size of the shared alignment set S as a fraction of D").range(0.001, 0.5);
    s.field("align.dim", &CooptOptions::common_dim, "Common target dimension n of the random projections").range(2, 4096);
    s.field("align.ridge", &CooptOptions::ridge, "Ridge strength of the alignment fit, relative to mean(diag(A^T A))").range(0, 1e6);
    s.field("align.map", &CooptOptions::align_map, "Alignment map of each non-reference participant").choices_described([] {
      return std::vector<config::Choice>{
          {"ridge", "the ridge fit T_k on S (CoOpt)"},
          {"identity", "T = I for every participant, weight 1: no alignment in the optimized dataset (an ablation; the "
                       "negative control of the aligned-beats-unaligned claim)"}};
    });
    s.field("align.intercept", &CooptOptions::align_intercept,
            "Fit the alignment with an intercept, y = a T + c on S-centered embeddings (false: y = a T as published)");
    s.field("align.weighting", &CooptOptions::weighting,
            "Student loss weight of each participant's rows: loo_r2 (the alignment's leave-one-out R^2 on S, "
            "clamped to [0, 1]; 1 for the reference) or none")
        .choices({"loo_r2", "none"});
    s.field("align.t", &CooptOptions::uniformity_t, "Temperature t of the uniformity score").range(0.01, 100);
    s.field("align.center", &CooptOptions::center_uniformity,
            "Center each prior's embeddings on S before the uniformity score (false: the published raw score)");
    s.field("align.reference", &CooptOptions::reference, "Reference prior name (\"\": the best uniformity score on S)");
    s.field("write_unaligned", &CooptOptions::write_unaligned, "Also write T = identity targets (the no-alignment ablation)");
    s.nest("simclr", &CooptOptions::simclr, simclr_section());
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
      return std::vector<config::Choice>{
          {"raw", "raw pixels"},
          {"random", "random-init MLP student, untrained"},
          {"simclr", "MLP student trained with SimCLR on the pool (coopt.simclr)"},
          {"dae", "MLP student trained as a denoising autoencoder on the pool"},
          {"coopt", "MLP student on the optimized dataset (aligned, weighted targets)"},
          {"coopt_noalign", "MLP student on the unaligned targets (T = I)"},
          {"central", "MLP student on one prior's targets for the whole pool (eval.central_prior)"},
          {"coopt_cnn", "CNN student on the optimized dataset"}};
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
