#pragma once
// The input layer's halo, fetched once: the rows of a matrix that never changes during training
// (the input features) that this worker's halo needs, sent by their owners at full precision
// (every peer sends its plan.send_rows, the same rows and order as a layer's exchange). Collective:
// every rank calls it. Host memory in and out, by design: the graph is loaded on the host and a
// worker's inputs are assembled there before their one upload, so this runs once, before training,
// whatever the device. The rows travel through comm::all_to_all_v_host: as they are on a
// communicator that takes host memory, through `via`'s device on one that does not (nccl).
#include "core/comm/communicator.hpp"
#include "core/tensor/csr.hpp"
#include "core/tensor/device_context.hpp"
#include "core/tensor/tensor.hpp"
#include "gnn/halo/halo_plan.hpp"

namespace mlsys::gnn {

// own: [owned, F] dense -> [halo, F].
Tensor fetch_halo_rows(comm::Communicator& c, DeviceContext& via, const HaloPlan& plan, const Tensor& own);
// own: CSR [owned, F] (values set) -> CSR [halo, F] (columns in the sender's row order).
Csr fetch_halo_rows(comm::Communicator& c, DeviceContext& via, const HaloPlan& plan, const Csr& own);
// Rows of a stacked on b (same columns), on the host.
Tensor stack_rows(const Tensor& a, const Tensor& b);
Csr stack_rows(const Csr& a, const Csr& b);

}  // namespace mlsys::gnn
