#pragma once
// The participant phase (steps 1-5), run by every rank of a communicator. Rank r serves the
// participants k with k % size == r; each loads only its shard's rows of the pool. Rank 0 loads
// the alignment set S and broadcasts its pixels, generates every W_k and broadcasts them; the
// reference's owner broadcasts W_ref f_ref(S). Alignment and target generation are local; each
// rank writes its own shards and rank 0 writes the manifest.
#include <string>
#include <vector>

#include "core/comm/communicator.hpp"
#include "core/util/json.hpp"
#include "dataopt/pipeline/plan.hpp"

namespace mlsys::dataopt {

struct ParticipantReport {
  std::vector<std::string> names;
  std::vector<double> uniformity, mse_before, mse_after;  // per participant
  int reference = 0;
  int64_t alignment_rows = 0;
  double seconds = 0;  // slowest rank's participant phase (embed, align, write)
  Json manifest;       // what was written (rank 0)
};

ParticipantReport run_participants(comm::Communicator& comm, const Plan& plan, const DataSource& data,
                                   const std::filesystem::path& digits_csv);

}  // namespace mlsys::dataopt
