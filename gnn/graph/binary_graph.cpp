// mlsys binary CSR (".mlsg"), little-endian:
//   header (128 bytes): magic "MLSYSGR1", u32 version=1, u32 reserved, i64 nodes, i64 nnz,
//   i64 feature_dim, i64 classes, then 5 x u64 section offsets (indptr, indices, features,
//   labels, split), zero padding to 128;
//   sections, each 64-byte aligned: indptr i64[nodes+1], indices i32[nnz],
//   features f32[nodes*feature_dim], labels i32[nodes], split u8[nodes] (0 none 1 train 2 val 3 test).
// The name is not stored: it comes from the file name.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "gnn/graph/loaders.hpp"

namespace mlsys::gnn {

namespace fs = std::filesystem;

namespace {
constexpr char kMagic[8] = {'M', 'L', 'S', 'Y', 'S', 'G', 'R', '1'};
struct Header {
  char magic[8];
  uint32_t version, reserved;
  int64_t nodes, nnz, feature_dim, classes;
  uint64_t off[5];
  char pad[128 - 8 - 8 - 32 - 40];
};
static_assert(sizeof(Header) == 128);
uint64_t align64(uint64_t x) { return (x + 63) & ~uint64_t{63}; }

struct Mapping {
  void* base = nullptr;
  size_t size = 0;
  ~Mapping() {
    if (base) munmap(base, size);
  }
};
}  // namespace

void write_binary_graph(const Graph& g, const fs::path& file) {
  if (g.multi_label())
    throw InputError("graph '" + g.name + "' is multi-label: the .mlsg format holds one label per node");
  Header h{};
  std::memcpy(h.magic, kMagic, 8);
  h.version = 1;
  h.nodes = g.num_nodes;
  h.nnz = g.num_edges();
  h.feature_dim = g.features.empty() ? 0 : g.feature_dim;
  h.classes = g.num_classes;
  const uint64_t sizes[5] = {g.indptr.size() * 8, g.indices.size() * 4, g.features.size() * 4, g.labels.size() * 4,
                             g.split.size()};
  const void* data[5] = {g.indptr.data(), g.indices.data(), g.features.data(), g.labels.data(), g.split.data()};
  uint64_t pos = sizeof(Header);
  for (int i = 0; i < 5; ++i) {
    pos = align64(pos);
    h.off[i] = pos;
    pos += sizes[i];
  }
  std::string buf(pos, '\0');
  std::memcpy(buf.data(), &h, sizeof h);
  for (int i = 0; i < 5; ++i)
    if (sizes[i]) std::memcpy(buf.data() + h.off[i], data[i], sizes[i]);
  write_file_atomic(file, buf);
}

Graph map_binary_graph(const fs::path& file) {
  int fd = ::open(file.c_str(), O_RDONLY);
  if (fd < 0) throw InputError("cannot open binary graph " + file.string());
  struct stat st{};
  ::fstat(fd, &st);
  auto m = std::make_shared<Mapping>();
  m->size = static_cast<size_t>(st.st_size);
  if (m->size < sizeof(Header)) {
    ::close(fd);
    throw InputError(file.string() + ": too short to be an mlsys binary graph");
  }
  m->base = ::mmap(nullptr, m->size, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (m->base == MAP_FAILED) {
    m->base = nullptr;
    throw InputError("cannot memory-map " + file.string());
  }
  Header h;
  std::memcpy(&h, m->base, sizeof h);
  if (std::memcmp(h.magic, kMagic, 8) != 0 || h.version != 1)
    throw InputError(file.string() + ": not an mlsys binary graph (bad magic or version)");
  if (h.nodes <= 0 || h.nnz < 0 || h.feature_dim < 0 || h.classes <= 0)
    throw InputError(file.string() + ": corrupt header");
  const uint64_t sizes[5] = {static_cast<uint64_t>(h.nodes + 1) * 8, static_cast<uint64_t>(h.nnz) * 4,
                             static_cast<uint64_t>(h.nodes * h.feature_dim) * 4, static_cast<uint64_t>(h.nodes) * 4,
                             static_cast<uint64_t>(h.nodes)};
  for (int i = 0; i < 5; ++i)
    if (h.off[i] % 64 != 0 || h.off[i] + sizes[i] > m->size)
      throw InputError(file.string() + ": truncated or corrupt (section " + std::to_string(i) + " out of bounds)");
  const char* b = static_cast<const char*>(m->base);
  Graph g;
  g.name = file.stem().string();
  g.num_nodes = h.nodes;
  g.feature_dim = h.feature_dim;
  g.num_classes = static_cast<int32_t>(h.classes);
  g.indptr = Array<int64_t>(reinterpret_cast<const int64_t*>(b + h.off[0]), h.nodes + 1, m);
  g.indices = Array<int32_t>(reinterpret_cast<const int32_t*>(b + h.off[1]), h.nnz, m);
  g.features = Array<float>(reinterpret_cast<const float*>(b + h.off[2]), h.nodes * h.feature_dim, m);
  g.labels = Array<int32_t>(reinterpret_cast<const int32_t*>(b + h.off[3]), h.nodes, m);
  g.split = Array<uint8_t>(reinterpret_cast<const uint8_t*>(b + h.off[4]), h.nodes, m);
  g.validate(file.string());
  return g;
}

}  // namespace mlsys::gnn
