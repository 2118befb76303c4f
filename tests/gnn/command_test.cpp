// The real `mlsys train-gnn` binary: quickstart outputs, determinism, errors, resume flag.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "core/util/json.hpp"
#include "tests/common/test_util.hpp"
#include "tests/gnn/gnn_test_util.hpp"

using namespace mlsys;
using mlsys::test::read_text;
using mlsys::test::run_mlsys;
using mlsys::test::TempDir;

static std::vector<std::string> column(const std::string& csv, const std::string& name) {
  std::istringstream in(csv);
  std::string line;
  std::getline(in, line);
  std::vector<std::string> head;
  std::istringstream hs(line);
  for (std::string c; std::getline(hs, c, ',');) head.push_back(c);
  size_t idx = std::find(head.begin(), head.end(), name) - head.begin();
  std::vector<std::string> out;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string c;
    for (size_t i = 0; i <= idx && std::getline(ls, c, ','); ++i) {
    }
    out.push_back(c);
  }
  return out;
}

TEST_CASE("quickstart: default config trains the small SBM and writes every output") {
  TempDir t;
  auto r = run_mlsys("train-gnn --out " + (t / "run").string() + " --set gnn.epochs=20 --set gnn.graph.cache_dir=" +
                     (t / "cache").string());
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("accuracy:") != std::string::npos);
  std::string csv = read_text(t / "run/epochs.csv");
  CHECK(csv.rfind("epoch,loss,train_acc,val_acc,test_acc,epoch_s,compute_s,quant_s,comm_s,wait_s,reduce_s,raw_bytes,wire_bytes", 0) == 0);
  auto halo = column(csv, "halo");
  REQUIRE(halo.size() == 20);
  CHECK(halo[0] == "fresh");
  CHECK(halo[1] == "stale");
  Json s = Json::parse(read_text(t / "run/summary.json"));
  CHECK(s["final_test_acc"].as_number() > 0.35);  // 6 classes (chance 1/6); 20 epochs is mid-way to ~0.86
  CHECK(s["halo_compression"].as_number() > 5);
  Json tr = Json::parse(read_text(t / "run/trace.json"));
  CHECK(tr.dump().find("wait") != std::string::npos);
  CHECK(std::filesystem::exists(t / "run/checkpoint.bin"));
  CHECK(std::filesystem::exists(t / "run/partitions.csv"));
  // The run's figures (gnn/report/figures.hpp): loss and accuracy curves, the time breakdown bar.
  const std::string curves = read_text(t / "run/curves.svg");
  CHECK(curves.rfind("<svg", 0) == 0);
  CHECK(curves.find("<polyline") != std::string::npos);
  CHECK(read_text(t / "run/breakdown.svg").find("compute") != std::string::npos);

  // Same seed, same losses; resume from the checkpoint continues to epoch 30.
  auto r2 = run_mlsys("train-gnn --out " + (t / "run2").string() + " --set gnn.epochs=20 --set gnn.graph.cache_dir=" +
                      (t / "cache").string());
  REQUIRE(r2.exit_code == 0);
  CHECK(column(read_text(t / "run2/epochs.csv"), "loss") == column(csv, "loss"));
  CHECK(read_text(t / "run2/partitions.csv") == read_text(t / "run/partitions.csv"));
  auto r3 = run_mlsys("train-gnn --out " + (t / "run3").string() + " --set gnn.epochs=30 --resume " +
                      (t / "run/checkpoint.bin").string() + " --set gnn.graph.cache_dir=" + (t / "cache").string());
  INFO(r3.err);
  REQUIRE(r3.exit_code == 0);
  CHECK(column(read_text(t / "run3/epochs.csv"), "loss").size() == 30);
}

TEST_CASE("bad graph input exits non-zero naming the file and line") {
  TempDir t;
  auto dir = t / "g";
  std::filesystem::create_directories(dir);
  mlsys::test::write_text(dir / "meta.txt", "nodes 3\nclasses 2\n");
  mlsys::test::write_text(dir / "edges.txt", "0 1\n1 7\n");
  auto r = run_mlsys("train-gnn --out " + (t / "run").string() + " --set gnn.graph.source=file --graph " + dir.string() +
                     " --set gnn.graph.binary_cache=false");
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("edges.txt:2") != std::string::npos);
  auto bad = run_mlsys("train-gnn --out " + (t / "run2").string() + " --set gnn.fwd_bits=3");
  CHECK(bad.exit_code == 2);
  CHECK(bad.err.find("gnn.fwd_bits = 3") != std::string::npos);
  CHECK(bad.err.find("offers 1, 2, 4, 8, 32") != std::string::npos);  // the widths come from the codec table
}

TEST_CASE("convert writes a .mlsg that trains like its source") {
  MLSYS_REQUIRE_SHARED_DATA(data);
  TempDir t;
  auto out = (t / "cora.mlsg").string();
  auto c = run_mlsys("train-gnn convert --out " + (t / "c").string() + " --set gnn.graph.source=file --graph " +
                     (data / "graphs/cora").string() + " --set gnn.graph.binary_cache=false --set gnn.graph.convert_out=" + out);
  INFO(c.err);
  REQUIRE(c.exit_code == 0);
  auto a = run_mlsys("train-gnn --out " + (t / "a").string() + " --set gnn.graph.source=file --graph " + out +
                     " --epochs 5 --set gnn.graph.cache_dir=" + (t / "cache").string());
  auto b = run_mlsys("train-gnn --out " + (t / "b").string() + " --set gnn.graph.source=file --graph " +
                     (data / "graphs/cora").string() + " --epochs 5 --set gnn.graph.binary_cache=false --set gnn.graph.cache_dir=" +
                     (t / "cache").string());
  REQUIRE(a.exit_code == 0);
  REQUIRE(b.exit_code == 0);
  CHECK(column(read_text(t / "a/epochs.csv"), "loss") == column(read_text(t / "b/epochs.csv"), "loss"));
}

TEST_CASE("the adaptive example settles: at most 3 switches in 100 epochs, each with its measured trend") {
  TempDir t;
  auto r = run_mlsys("train-gnn " + (mlsys::test::source_dir() / "configs/train-gnn/adaptive.yaml").string() + " --out " +
                     (t / "run").string() + " --set gnn.epochs=100 --set gnn.graph.cache_dir=" + (t / "cache").string());
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const auto sw = t / "run/switches.csv";
  REQUIRE(std::filesystem::exists(sw));  // the example does adapt
  auto epochs = column(read_text(sw), "epoch");
  CHECK(!epochs.empty());
  CHECK(epochs.size() <= 3);
  for (const auto& v : column(read_text(sw), "loss_trend")) CHECK(!v.empty());
}

TEST_CASE("epochs.csv leaves accuracies of epochs not evaluated empty, never -1") {
  TempDir t;
  auto r = run_mlsys("train-gnn --out " + (t / "run").string() + " --set gnn.epochs=6 --set gnn.eval_every=3 --set gnn.graph.cache_dir=" +
                     (t / "cache").string());
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string csv = read_text(t / "run/epochs.csv");
  for (const char* col : {"train_acc", "val_acc", "test_acc"}) {
    auto v = column(csv, col);
    REQUIRE(v.size() == 6);
    CHECK(std::count(v.begin(), v.end(), std::string()) == 4);  // epochs 0, 1, 3, 4 (2 and 5 evaluated)
    CHECK(std::count(v.begin(), v.end(), std::string("-1")) == 0);
    CHECK(!v[2].empty());
    CHECK(!v[5].empty());
  }
}

TEST_CASE("--graph PATH means gnn.graph.source=file with that path, and a path never goes unused") {
  TempDir t;
  mlsys::gnn::gnntest::write_tiny_text_graph(t / "tiny");
  auto a = run_mlsys("train-gnn --out " + (t / "a").string() + " --graph " + (t / "tiny").string() +
                     " --epochs 2 --set gnn.parts=1 --set gnn.graph.cache_dir=" + (t / "cache").string());
  INFO(a.out << a.err);
  REQUIRE(a.exit_code == 0);
  CHECK(Json::parse(read_text(t / "a/summary.json"))["graph"]["nodes"].as_int() == 6);
  auto missing = run_mlsys("train-gnn --out " + (t / "b").string() + " --graph " + (t / "nowhere").string() + " --epochs 2");
  CHECK(missing.exit_code != 0);  // a nonexistent path is an error, not a generated graph
  auto clash = run_mlsys("train-gnn --out " + (t / "c").string() + " --set gnn.graph.path=" + (t / "tiny").string() +
                         " --set gnn.graph.source=sbm --epochs 2");
  CHECK(clash.exit_code == 2);
  CHECK(clash.err.find("gnn.graph.path is set") != std::string::npos);
}

TEST_CASE("one worker on a generated graph: the graph's features, read in place, outlive their release after the inputs are built") {
  // A single worker wraps the graph's dense features instead of copying them; the command then
  // releases the graph's features (TrainSetup::inputs_built). The worker's view must keep them
  // alive: this run used to read freed memory (a segfault: `mlsys` unmaps blocks above 128 KiB).
  TempDir t;
  auto r = run_mlsys("train-gnn --out " + (t / "run").string() +
                     " --set gnn.parts=1 --set gnn.epochs=3 --set gnn.graph.features=64 --set run.progress=off");
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  Json s = Json::parse(read_text(t / "run" / "summary.json"));
  CHECK(s["epochs_run"].as_int() == 3);
  CHECK(s["final_train_acc"].as_number() > 0.0);
}

TEST_CASE("resume with fewer epochs than the checkpoint holds is an error that says how to go on") {
  // It used to train nothing and report a complete run.
  TempDir t;
  const std::string cache = " --set gnn.graph.cache_dir=" + (t / "cache").string();
  auto first = run_mlsys("train-gnn -q --set run.progress=off --out " + (t / "run").string() + " --set gnn.epochs=3" + cache);
  REQUIRE(first.exit_code == 0);
  auto fewer = run_mlsys("train-gnn -q --out " + (t / "fewer").string() + " --set gnn.epochs=2 --resume " +
                         (t / "run/checkpoint.bin").string() + cache);
  INFO(fewer.err);
  CHECK(fewer.exit_code == 2);
  CHECK(fewer.err.find("gnn.epochs = 2 but the checkpoint") != std::string::npos);
  CHECK(fewer.err.find("already holds 3 epochs") != std::string::npos);
  CHECK(fewer.err.find("set gnn.epochs above 3") != std::string::npos);
}

TEST_CASE("a final checkpoint that cannot be written (full disk) leaves an incomplete run and exit 1") {
  // On a full disk the run used to exit 0, status complete, its summary naming an older checkpoint.
  // The full disk is a small tmpfs mounted here: it holds the run's small files, not the checkpoint.
  TempDir t;
  const std::filesystem::path disk = t / "disk";
  std::filesystem::create_directories(disk);
  if (::geteuid() != 0) MLSYS_SKIP("no-root", "mounting a small tmpfs (a full disk) needs root");
  auto mount = test::run_shell("mount -t tmpfs -o size=160k tmpfs '" + disk.string() + "'");
  if (mount.exit_code != 0) MLSYS_SKIP("no-mount", "cannot mount a tmpfs here (" << mount.err << ")");
  struct Unmount {
    std::string dir;
    ~Unmount() { test::run_shell("umount '" + dir + "'"); }
  } unmount{disk.string()};
  // hidden 1024: a checkpoint of ~0.5 MiB, far above what is left once the small files are written.
  auto r = run_mlsys("train-gnn -q --set run.progress=off --set gnn.trace_epochs=0 --set gnn.model.hidden=1024 --out " + (disk / "run").string() +
                     " --set gnn.epochs=3 --set gnn.graph.cache_dir=" + (t / "cache").string());
  INFO(r.out << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("the run is incomplete, not written: checkpoint.bin") != std::string::npos);
  REQUIRE(std::filesystem::exists(disk / "run/summary.json"));
  Json s = Json::parse(read_text(disk / "run/summary.json"));
  CHECK(s["run"]["status"].as_string() == "incomplete");
  CHECK(s["run"]["partial"].as_bool());
  const Json* missing = s["run"].find("missing");
  REQUIRE(missing);
  REQUIRE(missing->size() >= 1);
  CHECK(missing->as_array()[0].find("output")->as_string() == "checkpoint.bin");
  CHECK(missing->as_array()[0].find("error")->as_string().find("after epoch 3 of 3") != std::string::npos);
  CHECK(s.find("checkpoint") == nullptr);  // no checkpoint of this run exists
  CHECK(s["last_checkpoint_error"].as_string().find("No space left") != std::string::npos);
}
