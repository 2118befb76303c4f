#pragma once
// One row of epochs.csv: the global loss, scores and time split of an epoch, and how it exchanged.
// Checkpoints carry the records so far (record_json / record_from).
#include "core/util/json.hpp"
#include "gnn/train/epoch_stats.hpp"

namespace mlsys::gnn {

struct EpochRecord {
  int epoch = 0;
  double loss = 0;
  double train_acc = -1, val_acc = -1, test_acc = -1;  // -1: not evaluated this epoch
  // The loss on the train rows in the evaluation pass (exact halos, no dropout), -1 when not
  // evaluated. `loss` is the training step's, with dropout and quantized halos, and wanders by
  // tens of percent late in training; this one shows whether optimization itself went backwards.
  double eval_loss = -1;
  double epoch_s = 0;      // measured wall time of the training step (slowest worker)
  EpochStats mean;         // per-worker mean of the time split; bytes summed over workers
  int fwd_bits = 32, bwd_bits = 32;
  bool stale = false;
};

Json record_json(const EpochRecord& r);
EpochRecord record_from(const Json& j);

}  // namespace mlsys::gnn
