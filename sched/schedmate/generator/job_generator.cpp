#include "sched/schedmate/generator/job_generator.hpp"

#include <cmath>
#include <cstdio>

#include "core/util/random.hpp"

namespace mlsys::schedmate {

namespace {
struct Workload {
  const char* name;
  const char* command;      // %d = batch size, %ld = steps
  double samples_per_s;     // per GPU at batch 64
  std::vector<int> batches;
};
const std::vector<Workload> kWorkloads = {
    {"resnet50-imagenet", "torchrun --nproc_per_node=%d train.py --arch resnet50 --data /data/imagenet --batch-size %d --max_steps %ld --amp", 900, {64, 128, 256}},
    {"bert-squad", "python run_qa.py --model_name_or_path bert-base-uncased --dataset_name squad --per_device_train_batch_size %d --max_steps %ld --fp16 --nproc_per_node=%d", 300, {16, 32}},
    {"gpt-megatron", "python pretrain_gpt.py --tensor-model-parallel-size 2 --pipeline-model-parallel-size 1 --micro-batch-size %d --train-iters %ld --data-path /data/openwebtext --bf16 --nproc_per_node=%d", 60, {4, 8}},
    {"vit-cifar", "python train.py model=vit dataset=cifar10 batch_size=%d max_steps=%ld precision=16 trainer.devices=%d", 1500, {128, 256}},
    {"lstm-wikitext", "python main.py --cuda --data /data/wikitext2 --batch_size %d --num_steps %ld --nproc_per_node=%d", 2500, {20, 40, 80}},
    {"keras-mnist", "python keras_mnist.py --dataset mnist --batch_size %d --steps %ld --gpus %d", 8000, {128, 512}},
};
}  // namespace

std::vector<AdvisedJob> generate_jobs(const JobGenSpec& spec) {
  Rng rng(spec.seed);
  std::vector<AdvisedJob> out;
  double t = 0;
  char buf[512];
  for (int i = 0; i < spec.jobs; ++i) {
    const Workload& w = kWorkloads[rng.below(kWorkloads.size())];
    int batch = w.batches[rng.below(w.batches.size())];
    int gpus = 1 << rng.below(4);
    long steps = static_cast<long>(std::exp(std::log(500.0) + rng.uniform() * std::log(200.0)));  // 500 .. 100k
    // The format strings place gpus/batch/steps in different orders; fill by workload.
    std::string fmt = w.command;
    if (fmt.rfind("torchrun", 0) == 0) std::snprintf(buf, sizeof buf, w.command, gpus, batch, steps);
    else std::snprintf(buf, sizeof buf, w.command, batch, steps, gpus);
    AdvisedJob j;
    j.id = "job-" + std::to_string(i);
    j.user = "user" + std::to_string(rng.below(static_cast<uint64_t>(spec.users)));
    j.name = w.name;
    j.text.command = buf;
    j.text.name = w.name;
    j.text.num_gpus = gpus;
    // Throughput: samples/s grows sub-linearly with batch and with GPUs.
    double samples = w.samples_per_s * gpus * std::pow(batch / 64.0, 0.3) * std::pow(0.92, std::log2(gpus));
    double rate = samples / batch * (1.0 + spec.throughput_noise * (2 * rng.uniform() - 1));
    j.duration = static_cast<double>(steps) / rate;
    j.submit_time = t;
    t += rng.exponential(1.0 / spec.mean_interarrival_s);
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace mlsys::schedmate
