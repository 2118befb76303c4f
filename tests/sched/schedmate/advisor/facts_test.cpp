#include <doctest/doctest.h>

#include "sched/schedmate/advisor/facts.hpp"

using namespace mlsys::schedmate;

TEST_CASE("facts from a Gavel command and its trace fields") {
  JobText j{"cd %s/gpusched/workloads/pytorch/image_classification/imagenet && python3 main.py -j 4 -a resnet50 -b 128 "
            "%s/data/imagenet/pytorch",
            "", "ResNet-50 (batch size 128)", 4, 47442, ""};
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
                              "", "", 16, 0, ""});
  CHECK(m.framework == "megatron");
  CHECK(m.model == "gpt");  // the script's file name, pretrain_gpt.py
  CHECK(m.task.empty());     // no task word anywhere
  CHECK(m.tp == 2);
  CHECK(m.pp == 2);
  CHECK(m.dp == 4);
  CHECK(m.steps == 5000);
  CHECK(m.batch_size == 4);
  CHECK(m.precision == "bf16");
  CHECK(m.dataset == "openwebtext");

  JobFacts h = extract_facts({"python run_qa.py --model_name_or_path bert-base-uncased --dataset_name squad "
                              "--per_device_train_batch_size=32 --num_train_epochs 3 --fp16",
                              "", "", 1, 0, ""});
  CHECK(h.model == "bert-base-uncased");
  CHECK(h.dataset == "squad");
  CHECK(h.batch_size == 32);
  CHECK(h.epochs == 3);
  CHECK(h.precision == "fp16");

  JobFacts y = extract_facts({"python train.py model=vit dataset=cifar10 batch_size=256 max_steps=900", "", "", 2, 0, ""});
  CHECK(y.model == "vit");
  CHECK(y.dataset == "cifar10");
  CHECK(y.batch_size == 256);
  CHECK(y.steps == 900);

  JobFacts s = extract_facts({"python train.py", "import pytorch_lightning as pl\nbatch_size = 64\ntrainer = pl.Trainer(max_epochs=12)\n", "", 1, 0, ""});
  CHECK(s.framework == "pytorch");
  CHECK(s.batch_size == 64);
  CHECK(s.epochs == 12);
}

TEST_CASE("retrieval text drops run length and placeholders") {
  JobText a{"python3 main.py --data_dir=%s/cifar10 --batch_size 32 --num_steps 1000", "", "ResNet-18", 1, 0, ""};
  JobText b{"python3 main.py --data_dir=%s/cifar10 --batch_size 32 --num_steps 99999", "", "ResNet-18", 1, 0, ""};
  CHECK(retrieval_text(a) == retrieval_text(b));
  CHECK(retrieval_text(a).find("%s") == std::string::npos);
  CHECK(extract_facts({"", "", "", 0, 0, ""}).model.empty());
}

TEST_CASE("facts come from generic patterns, not from a list of known workloads") {
  // A model nobody listed: the job name's shape, the script's file name, a model flag.
  JobFacts a = extract_facts({"python3 train.py --data_dir %s/data/flowers102 --batch_size 48", "", "EfficientNet-B7 (batch size 48)", 2, 0, ""});
  CHECK(a.model == "efficientnet-b7");
  CHECK(a.dataset == "flowers102");
  CHECK(a.batch_size == 48);
  JobFacts b = extract_facts({"cd /src/workloads/pytorch/vision && python3 swin_transformer.py --dataset_path /mnt/data/ade20k", "", "", 1, 0, ""});
  CHECK(b.model == "swin_transformer");
  CHECK(b.dataset == "ade20k");
  JobFacts c = extract_facts({"python3 nerf.py --data %s/data/blender/lego.npz", "", "", 1, 0, ""});
  CHECK(c.model == "nerf");
  CHECK(c.dataset == "lego");  // a file's name wins over its folders
  JobFacts d = extract_facts({"python run.py --arch ResNet-101", "", "", 8, 0, ""});
  CHECK(d.model == "resnet101");
  // Numbers with units.
  JobFacts e = extract_facts({"python fit.py", "", "conformer, 30 epochs, 10k steps", 1, 0, ""});
  CHECK(e.epochs == 30);
  CHECK(e.steps == 10000);
  CHECK(e.model == "conformer");
}

TEST_CASE("facts of an MLPerf run: key=value words, accelerator kind from the trace") {
  // The command the MLPerf readers write: only what the run states (no model, data set or task).
  JobText t{"mlperf benchmark=bert framework=\"PyTorch NVIDIA "
            "Release 20.06\" system=dgxa100_n32_ngc20.06_pytorch accelerator=a100 accelerators=256 submitter=NVIDIA "
            "round=v0.7",
            "", "dgxa100_n32_ngc20.06_pytorch/bert", 256, 0, "a100"};
  JobFacts f = extract_facts(t);
  CHECK(f.model == "bert");  // the job name's last component, the benchmark
  CHECK(f.dataset.empty());
  CHECK(f.framework == "pytorch");
  CHECK(f.software == "pytorch nvidia release 20.06");  // the stack with its version: 19.05 and 20.06 differ
  CHECK(f.accelerator == "a100");
  CHECK(f.system == "dgxa100_n32_ngc20.06_pytorch");
  CHECK(f.num_gpus == 256);
  CHECK(f.key().find("|a100|dgxa100_n32_ngc20.06_pytorch") != std::string::npos);
  JobFacts g = extract_facts({"mlperf benchmark=ssd framework=\"NGC MXNet 20.06 , NGC PyTorch 20.06\" system=DSS8440", "", "", 8, 0, ""});
  CHECK(g.framework == "mxnet");
  CHECK(extract_facts({"mlperf framework=research-tf", "", "", 8, 0, ""}).framework == "tensorflow");
}
