// mlsys binary CSR (".mlsg"), little-endian:
//   header (128 bytes): magic "MLSYSGR1", u32 version, u32 reserved, i64 nodes, i64 nnz,
//   i64 feature_dim, i64 classes, u64 offset[7], i64 feature_nnz, u64 source_key, zero padding;
//   sections, each 64-byte aligned: 0 indptr i64[nodes+1], 1 indices i32[nnz],
//   2 features f32[nodes*feature_dim] (version 1) or the sparse values f32[feature_nnz] (version 2),
//   3 labels i32[nodes], 4 split u8[nodes] (0 none 1 train 2 val 3 test), and in version 2
//   5 feature row pointers i64[nodes+1], 6 feature columns i32[feature_nnz].
// Dense graphs are written as version 1 (offsets 5, 6, feature_nnz and source_key read as zero in
// version 1 files written before they existed, except source_key, which caches set).
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
constexpr int kSections = 7;
struct Header {
  char magic[8];
  uint32_t version, reserved;
  int64_t nodes, nnz, feature_dim, classes;
  uint64_t off[kSections];
  int64_t feature_nnz;
  uint64_t source_key;
  char pad[128 - 8 - 8 - 32 - 8 * kSections - 16];
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

void write_binary_graph(const Graph& g, const fs::path& file, uint64_t source_key) {
  if (g.multi_label())
    throw InputError("graph '" + g.name + "' is multi-label: the .mlsg format holds one label per node");
  const bool sparse = g.sparse_features();
  Header h{};
  std::memcpy(h.magic, kMagic, 8);
  h.version = sparse ? 2 : 1;
  h.nodes = g.num_nodes;
  h.nnz = g.num_edges();
  h.feature_dim = g.has_features() ? g.feature_dim : 0;
  h.classes = g.num_classes;
  h.feature_nnz = sparse ? static_cast<int64_t>(g.feature_values.size()) : 0;
  h.source_key = source_key;
  const Array<float>& fvals = sparse ? g.feature_values : g.features;
  const uint64_t sizes[kSections] = {g.indptr.size() * 8, g.indices.size() * 4, fvals.size() * 4, g.labels.size() * 4,
                                     g.split.size(), g.feature_indptr.size() * 8, g.feature_indices.size() * 4};
  const void* data[kSections] = {g.indptr.data(), g.indices.data(), fvals.data(), g.labels.data(),
                                 g.split.data(), g.feature_indptr.data(), g.feature_indices.data()};
  const int sections = sparse ? 7 : 5;
  uint64_t pos = sizeof(Header);
  for (int i = 0; i < sections; ++i) {
    pos = align64(pos);
    h.off[i] = pos;
    pos += sizes[i];
  }
  std::string buf(pos, '\0');
  std::memcpy(buf.data(), &h, sizeof h);
  for (int i = 0; i < sections; ++i)
    if (sizes[i]) std::memcpy(buf.data() + h.off[i], data[i], sizes[i]);
  write_file_atomic(file, buf);
}

Graph map_binary_graph(const fs::path& file, uint64_t* source_key) {
  check_input_file(file);  // exists, a regular file (core/util/fs.hpp): never map a device
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
  if (std::memcmp(h.magic, kMagic, 8) != 0 || (h.version != 1 && h.version != 2))
    throw InputError(file.string() + ": not an mlsys binary graph (bad magic or version)");
  const bool sparse = h.version == 2;
  if (h.nodes <= 0 || h.nnz < 0 || h.feature_dim < 0 || h.classes <= 0 || h.classes > INT32_MAX || h.feature_nnz < 0 ||
      (sparse && h.feature_dim == 0) || h.nodes > INT32_MAX || h.nnz > (int64_t{1} << 46) || h.feature_dim > INT32_MAX ||
      h.feature_nnz > (int64_t{1} << 46))
    throw InputError(file.string() + ": corrupt header");
  const uint64_t nodes = static_cast<uint64_t>(h.nodes);
  const uint64_t dense = sparse ? 0 : nodes * static_cast<uint64_t>(h.feature_dim);
  if (dense > (uint64_t{1} << 46)) throw InputError(file.string() + ": corrupt header");
  const uint64_t vals = sparse ? static_cast<uint64_t>(h.feature_nnz) : dense;
  const uint64_t sizes[kSections] = {(nodes + 1) * 8, static_cast<uint64_t>(h.nnz) * 4, vals * 4, nodes * 4, nodes,
                                     sparse ? (nodes + 1) * 8 : 0, sparse ? static_cast<uint64_t>(h.feature_nnz) * 4 : 0};
  const int sections = sparse ? 7 : 5;
  for (int i = 0; i < sections; ++i)
    if (h.off[i] % 64 != 0 || h.off[i] > m->size || sizes[i] > m->size - h.off[i])
      throw InputError(file.string() + ": truncated or corrupt (section " + std::to_string(i) + " out of bounds)");
  const char* b = static_cast<const char*>(m->base);
  Graph g;
  g.name = file.stem().string();
  g.num_nodes = h.nodes;
  g.feature_dim = h.feature_dim;
  g.num_classes = static_cast<int32_t>(h.classes);
  g.indptr = Array<int64_t>(reinterpret_cast<const int64_t*>(b + h.off[0]), nodes + 1, m);
  g.indices = Array<int32_t>(reinterpret_cast<const int32_t*>(b + h.off[1]), static_cast<size_t>(h.nnz), m);
  if (sparse) {
    g.feature_values = Array<float>(reinterpret_cast<const float*>(b + h.off[2]), vals, m);
    g.feature_indptr = Array<int64_t>(reinterpret_cast<const int64_t*>(b + h.off[5]), nodes + 1, m);
    g.feature_indices = Array<int32_t>(reinterpret_cast<const int32_t*>(b + h.off[6]), vals, m);
  } else {
    g.features = Array<float>(reinterpret_cast<const float*>(b + h.off[2]), vals, m);
  }
  g.labels = Array<int32_t>(reinterpret_cast<const int32_t*>(b + h.off[3]), nodes, m);
  g.split = Array<uint8_t>(reinterpret_cast<const uint8_t*>(b + h.off[4]), nodes, m);
  g.validate(file.string());
  if (source_key) *source_key = h.source_key;
  return g;
}

}  // namespace mlsys::gnn
