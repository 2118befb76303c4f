#pragma once
// The participant phase (steps 1-5), run by every rank of a communicator. Rank r owns the
// participants k with k % size == r (their S embeddings, alignment, weights and shard files),
// while every rank embeds a chunk-aligned slice of every shard and the owner gathers them, so the
// work splits evenly however unequal the priors' costs; results are bit-identical for any number
// of ranks. Each rank reads only its rows of the pool; S's pixels are summed from the owners'
// shards. Rank 0 generates every W_k and broadcasts them; the reference's owner broadcasts
// W_ref f_ref(S); rank 0 writes the manifest after every shard is written.
#include <string>
#include <vector>

#include "core/comm/communicator.hpp"
#include "core/tensor/device_context.hpp"
#include "core/util/json.hpp"
#include "dataopt/pipeline/plan.hpp"

namespace mlsys::dataopt {

struct ParticipantReport {
  std::vector<std::string> names;
  std::vector<double> uniformity, mse_before, mse_after;  // per participant
  std::vector<double> loo_r2;  // leave-one-out R^2 of the alignment on S (1 for the reference)
  std::vector<double> weight;  // the student's loss weight for the participant's rows
  int reference = 0;
  int64_t alignment_rows = 0;
  double seconds = 0;  // slowest rank's participant phase (embed, align, write)
  Json manifest;       // what was written (rank 0)
};

// `ctx` is this rank's context: its priors, embeddings and alignment run there.
ParticipantReport run_participants(comm::Communicator& comm, DeviceContext& ctx, const Plan& plan,
                                   const DataSource& data);

}  // namespace mlsys::dataopt
