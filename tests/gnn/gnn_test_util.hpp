#pragma once
// Helpers for the gnn tests: small graphs written in the text format, quick training setups.
#include <zlib.h>

#include <filesystem>
#include <string>

#include "gnn/graph/generators.hpp"
#include "gnn/graph/loaders.hpp"
#include "gnn/partition/partitioner.hpp"
#include "gnn/train/trainer.hpp"
#include "tests/common/test_util.hpp"

namespace mlsys::gnn::gnntest {

// A gzipped file, as OGB ships its tables.
inline void write_gz(const std::filesystem::path& p, const std::string& s) {
  std::filesystem::create_directories(p.parent_path());
  gzFile f = gzopen(p.c_str(), "wb");
  gzwrite(f, s.data(), static_cast<unsigned>(s.size()));
  gzclose(f);
}

// A 4-node OGB node-property folder: path 0-1-2-3, 2 features, 3 classes, split "time".
inline void write_toy_ogb(const std::filesystem::path& d) {
  write_gz(d / "raw/edge.csv.gz", "0,1\n1,2\n2,3\n");
  write_gz(d / "raw/num-node-list.csv.gz", "4\n");
  write_gz(d / "raw/node-feat.csv.gz", "0.1,0.2\n0.3,0.4\n0.5,0.6\n0.7,0.8\n");
  write_gz(d / "raw/node-label.csv.gz", "0\n1\n2\n1\n");
  write_gz(d / "split/time/train.csv.gz", "0\n1\n");
  write_gz(d / "split/time/valid.csv.gz", "2\n");
  write_gz(d / "split/time/test.csv.gz", "3\n");
}

// A 6-node text graph (two triangles joined by one edge), 2 features, 2 classes.
inline void write_tiny_text_graph(const std::filesystem::path& dir) {
  using mlsys::test::write_text;
  std::filesystem::create_directories(dir);
  write_text(dir / "meta.txt", "dataset tiny\nnodes 6\nfeatures 2\nclasses 2\n");
  write_text(dir / "edges.txt", "0 1\n0 2\n1 2\n2 3\n3 4\n3 5\n4 5\n");
  write_text(dir / "features.txt", "6 2\n0 1 0:1\n1 1 0:1\n2 2 0:1 1:0.5\n3 1 1:1\n4 1 1:1\n5 1 1:2\n");
  write_text(dir / "labels.txt", "0 0\n1 0\n2 0\n3 1\n4 1\n5 1\n");
  write_text(dir / "split.txt", "0 train\n5 train\n1 val\n4 val\n2 test\n3 test\n");
}

inline SbmParams small_sbm(int64_t nodes = 600) {
  SbmParams p;
  p.nodes = nodes;
  p.classes = 4;
  p.avg_degree = 8;
  p.homophily = 0.7;
  p.features = 16;
  p.feature_signal = 0.3;
  p.train_fraction = 0.3;
  return p;
}

inline TrainSetup quick_setup(int parts, int epochs) {
  TrainSetup s;
  s.gnn.parts = parts;
  s.gnn.epochs = epochs;
  s.gnn.fwd_bits = 32;
  s.gnn.bwd_bits = 32;
  s.gnn.pipeline = false;
  s.gnn.trace_epochs = 0;
  s.threads = 1;  // small graphs: one thread avoids OpenMP spin-waits on a busy 2-core machine
  return s;
}

// quick_setup with a small model of `arch` (16 hidden units, 2 heads where it has heads, dropout
// 0.5): the tests that run every registered architecture.
inline TrainSetup arch_setup(int parts, int epochs, const std::string& arch) {
  TrainSetup s = quick_setup(parts, epochs);
  s.gnn.model.arch = arch;
  s.gnn.model.hidden = 16;
  s.gnn.model.heads = 2;
  s.gnn.model.dropout = 0.5;
  return s;
}

// The per-epoch training losses of a run.
inline std::vector<double> losses(const TrainResult& r) {
  std::vector<double> v;
  for (const auto& e : r.epochs) v.push_back(e.loss);
  return v;
}

inline std::vector<int32_t> parts_of(const Graph& g, int parts, const std::string& name = "metis", uint64_t seed = 1) {
  PartitionParams pp;
  pp.parts = parts;
  pp.seed = seed;
  return partition_cached(g, name, pp, "");
}

}  // namespace mlsys::gnn::gnntest
