#pragma once
// The input layer's halo, fetched once: the rows of a matrix that never changes during training
// (the input features) that this worker's halo needs, sent by their owners at full precision
// (every peer sends its plan.send_rows, the same rows and order as a layer's exchange). Collective:
// every rank calls it. Host memory in and out (inputs are assembled on the host before they go to
// the device).
#include "core/comm/communicator.hpp"
#include "core/tensor/csr.hpp"
#include "core/tensor/tensor.hpp"
#include "gnn/halo/halo_plan.hpp"

namespace mlsys::gnn {

// own: [owned, F] dense -> [halo, F].
Tensor fetch_halo_rows(comm::Communicator& c, const HaloPlan& plan, const Tensor& own);
// own: CSR [owned, F] (values set) -> CSR [halo, F] (columns in the sender's row order).
Csr fetch_halo_rows(comm::Communicator& c, const HaloPlan& plan, const Csr& own);
// Rows of a stacked on b (same columns), on the host.
Tensor stack_rows(const Tensor& a, const Tensor& b);
Csr stack_rows(const Csr& a, const Csr& b);

}  // namespace mlsys::gnn
