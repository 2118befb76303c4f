#include "gnn/train/epoch_record.hpp"

namespace mlsys::gnn {

// A flat array, in the order of the fields.
Json record_json(const EpochRecord& r) {
  Json a = Json::array();
  for (double v : {double(r.epoch), r.loss, r.train_acc, r.val_acc, r.test_acc, r.epoch_s, r.mean.compute_s, r.mean.quant_s,
                   r.mean.comm_s, r.mean.wait_s, r.mean.reduce_s, double(r.mean.raw_bytes), double(r.mean.wire_bytes),
                   double(r.mean.reduce_bytes), double(r.fwd_bits), double(r.bwd_bits), r.stale ? 1.0 : 0.0, r.eval_loss})
    a.push_back(v);
  return a;
}
EpochRecord record_from(const Json& j) {
  const auto& a = j.as_array();
  EpochRecord r;
  auto d = [&](size_t i) { return a.at(i).as_number(); };
  r.epoch = static_cast<int>(d(0));
  r.loss = d(1);
  r.train_acc = d(2);
  r.val_acc = d(3);
  r.test_acc = d(4);
  r.epoch_s = d(5);
  r.mean.compute_s = d(6);
  r.mean.quant_s = d(7);
  r.mean.comm_s = d(8);
  r.mean.wait_s = d(9);
  r.mean.reduce_s = d(10);
  r.mean.raw_bytes = static_cast<uint64_t>(d(11));
  r.mean.wire_bytes = static_cast<uint64_t>(d(12));
  r.mean.reduce_bytes = static_cast<uint64_t>(d(13));
  r.fwd_bits = static_cast<int>(d(14));
  r.bwd_bits = static_cast<int>(d(15));
  r.stale = d(16) != 0;
  r.eval_loss = a.size() > 17 ? d(17) : -1;  // checkpoints written before the field existed
  return r;
}

}  // namespace mlsys::gnn
