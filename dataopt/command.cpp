#include "dataopt/command.hpp"

#include "core/comm/comm_options.hpp"
#include "core/runtime/run_context.hpp"
#include "core/runtime/run_options.hpp"
#include "core/tensor/device_options.hpp"
#include "core/util/error.hpp"
#include "dataopt/options.hpp"

namespace mlsys::dataopt {

const CommandSpec& coopt_command() {
  static const CommandSpec spec{
      "coopt",
      "CoOpt: optimize an unlabeled pool with heterogeneous priors, train students on it, compare",
      "  mlsys coopt                                   quick demo (small pool, seconds)\n"
      "  mlsys coopt compare configs/coopt/fashion_mnist.yaml   the Fashion-MNIST protocol table + plots\n"
      "  mlsys coopt optimize <cfg> --set comm.world_size=4     participants as 4 inproc ranks\n"
      "  mpirun -np 4 mlsys coopt optimize <cfg> --set comm.backend=mpi --out DIR --overwrite\n"
      "  mlsys coopt train <cfg> --set coopt.dataset_dir=DIR    reuse an optimized dataset",
      {&run_section(), &comm_section(), &device_section(), &coopt_section()},
      command_modes("coopt"),
      "coopt.mode",
      {},
      {}};
  return spec;
}

}  // namespace mlsys::dataopt
