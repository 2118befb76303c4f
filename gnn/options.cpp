#include "gnn/options.hpp"

#include "core/runtime/command.hpp"

#include "core/nn/lr_schedule.hpp"
#include "core/nn/optimizer.hpp"
#include "core/quant/codec.hpp"

#include "gnn/partition/partitioner.hpp"

namespace mlsys::gnn {

const config::Section<GnnOptions>& gnn_section() {
  using O = GnnOptions;
  static const config::Section<O> s("gnn", "Sylvie distributed full-graph GNN training", [](auto& s) {
    s.field("mode", &O::mode, "What to run (the first word after `train-gnn`)")
        .choices_described([] { return mode_choices("train-gnn"); });
    s.nest("graph", &O::graph, graph_section());
    s.field("parts", &O::parts, "Partitions = workers (inproc: threads; mpi/nccl under mpirun: unset means the rank count, set must equal it)").range(1, 4096);
    s.field("partitioner", &O::partitioner, "Partitioner").choices_described([] { return partitioner_registry().choices(); });
    s.field("metis_objective", &O::metis_objective, "METIS objective").choices({"volume", "cut"});
    s.field("partition_cache", &O::partition_cache, "Cache partitions on disk keyed by graph and parameters");

    s.nest("model", &O::model, model_section());

    // The Adam family (core/nn): checkpoints carry Adam's moments.
    s.field("optim.name", &O::optimizer, "Optimizer").choices_described([] {
      std::vector<config::Choice> out;
      for (const char* name : {"adam", "adamw"}) out.push_back({name, nn::optimizer_registry().entry(name).description});
      return out;
    });
    s.field("optim.lr", &O::lr, "Learning rate (> 0)").range(1e-12, 10);
    s.field("optim.weight_decay", &O::weight_decay, "Weight decay (adam: L2 on the gradient; adamw: decoupled)").range(0, 10);
    s.field("optim.decay_first_layer_only", &O::decay_first_layer_only, "Apply weight decay to the first layer's weights only (Kipf & Welling)");
    s.field("optim.schedule", &O::lr_schedule, "Learning-rate schedule over the epochs (the rate of epoch e is optim.lr x the schedule's factor)")
        .choices_described([] { return nn::lr_schedule_registry().choices(); });
    s.field("epochs", &O::epochs, "Training epochs").range(1, 1e7);
    s.field("eval_every", &O::eval_every, "Evaluate train/val/test accuracy every N epochs").range(1, 1e6);

    s.field("fwd_bits", &O::fwd_bits, "Bits per value of forward halo features")
        .choices_described(quant::unbiased_width_choices);
    s.field("bwd_bits", &O::bwd_bits, "Bits per value of backward halo gradients")
        .choices_described(quant::unbiased_width_choices);
    s.field("pipeline", &O::pipeline, "Staleness-1 pipelining: use halo data received during the previous epoch");
    s.nest("halo", &O::halo, halo_section());
    s.nest("staleness", &O::staleness, staleness_section());

    s.field("checkpoint_every", &O::checkpoint_every, "Write a checkpoint every N epochs (0 = only at the end and on SIGINT)").range(0, 1e7);
    s.field("resume", &O::resume, "Checkpoint file to resume from");
    s.field("trace_epochs", &O::trace_epochs, "Epochs recorded in trace.json (Chrome trace; 0 = none)").range(0, 1000);
    s.field("report_partitions", &O::report_partitions, "Write partitions.csv (per-partition inner/halo/edges and volume)");
  });
  return s;
}

}  // namespace mlsys::gnn
