#include <doctest/doctest.h>

#include "sched/schedmate/advisor/facts.hpp"

using namespace mlsys::schedmate;

TEST_CASE("facts from a Gavel command and its trace fields") {
  JobText j{"cd %s/gpusched/workloads/pytorch/image_classification/imagenet && python3 main.py -j 4 -a resnet50 -b 128 "
            "%s/data/imagenet/pytorch",
            "", "ResNet-50 (batch size 128)", 4, 47442};
  JobFacts f = extract_facts(j);
  CHECK(f.framework == "pytorch");
  CHECK(f.task == "image_classification");
  CHECK(f.model == "resnet50");
  CHECK(f.dataset == "imagenet");
  CHECK(f.batch_size == 128);
  CHECK(f.steps == 47442);
  CHECK(f.num_gpus == 4);
  CHECK(f.dp == 4);
}

TEST_CASE("facts from Megatron, Hugging Face and Hydra-style commands and a script") {
  JobFacts m = extract_facts({"torchrun --nproc_per_node=8 pretrain_gpt.py --tensor-model-parallel-size 2 "
                              "--pipeline-model-parallel-size 2 --micro-batch-size 4 --train-iters 5000 --bf16 "
                              "--data-path /data/openwebtext",
                              "", "", 16, 0});
  CHECK(m.framework == "megatron");
  CHECK(m.model == "gpt");
  CHECK(m.task == "language_modeling");
  CHECK(m.tp == 2);
  CHECK(m.pp == 2);
  CHECK(m.dp == 4);
  CHECK(m.steps == 5000);
  CHECK(m.batch_size == 4);
  CHECK(m.precision == "bf16");
  CHECK(m.dataset == "openwebtext");

  JobFacts h = extract_facts({"python run_qa.py --model_name_or_path bert-base-uncased --dataset_name squad "
                              "--per_device_train_batch_size=32 --num_train_epochs 3 --fp16",
                              "", "", 1, 0});
  CHECK(h.model == "bert-base");
  CHECK(h.dataset == "squad");
  CHECK(h.batch_size == 32);
  CHECK(h.epochs == 3);
  CHECK(h.precision == "fp16");

  JobFacts y = extract_facts({"python train.py model=vit dataset=cifar10 batch_size=256 max_steps=900", "", "", 2, 0});
  CHECK(y.model == "vit");
  CHECK(y.dataset == "cifar10");
  CHECK(y.batch_size == 256);
  CHECK(y.steps == 900);

  JobFacts s = extract_facts({"python train.py", "import pytorch_lightning as pl\nbatch_size = 64\ntrainer = pl.Trainer(max_epochs=12)\n", "", 1, 0});
  CHECK(s.framework == "pytorch");
  CHECK(s.batch_size == 64);
  CHECK(s.epochs == 12);
}

TEST_CASE("retrieval text drops run length and placeholders") {
  JobText a{"python3 main.py --data_dir=%s/cifar10 --batch_size 32 --num_steps 1000", "", "ResNet-18", 1, 0};
  JobText b{"python3 main.py --data_dir=%s/cifar10 --batch_size 32 --num_steps 99999", "", "ResNet-18", 1, 0};
  CHECK(retrieval_text(a) == retrieval_text(b));
  CHECK(retrieval_text(a).find("%s") == std::string::npos);
  CHECK(extract_facts({"", "", "", 0, 0}).model.empty());
}
