#include "dataopt/data/idx.hpp"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "dataopt/data/bytes.hpp"

namespace mlsys::dataopt {

namespace fs = std::filesystem;

namespace {

constexpr uint8_t kUbyte = 0x08;
constexpr uint8_t kFloat = 0x0D;

struct IdxHeader {
  uint8_t type = 0;
  std::vector<uint32_t> dims;
  size_t data_offset = 0;
};

uint32_t be32(const std::string& b, size_t at) {
  auto u = [&](size_t i) { return static_cast<uint32_t>(static_cast<uint8_t>(b[at + i])); };
  return (u(0) << 24) | (u(1) << 16) | (u(2) << 8) | u(3);
}

IdxHeader parse_header(const std::string& b, const fs::path& path) {
  if (b.size() < 4 || b[0] != 0 || b[1] != 0)
    throw InputError(path.string() + ": not an IDX file (the first two bytes must be zero; got a " +
                     std::to_string(b.size()) + "-byte file)");
  IdxHeader h;
  h.type = static_cast<uint8_t>(b[2]);
  const int nd = static_cast<uint8_t>(b[3]);
  if (nd < 1 || nd > 4) throw InputError(path.string() + ": IDX header declares " + std::to_string(nd) + " dimensions");
  if (b.size() < 4 + 4 * static_cast<size_t>(nd)) throw InputError(path.string() + ": truncated IDX header");
  size_t count = 1;
  for (int i = 0; i < nd; ++i) {
    h.dims.push_back(be32(b, 4 + 4 * static_cast<size_t>(i)));
    count *= h.dims.back();
  }
  h.data_offset = 4 + 4 * static_cast<size_t>(nd);
  size_t elem = h.type == kUbyte ? 1 : h.type == kFloat ? 4 : 0;
  if (elem == 0)
    throw InputError(path.string() + ": IDX element type 0x" + std::to_string(h.type) +
                     " is not supported (use unsigned byte 0x08 or float32 0x0D)");
  if (b.size() - h.data_offset != count * elem)
    throw InputError(path.string() + ": IDX header promises " + std::to_string(count * elem) + " data bytes but the file has " +
                     std::to_string(b.size() - h.data_offset) + " (truncated or mismatched file)");
  return h;
}

void write_bytes(const fs::path& path, const std::string& data) {
  if (path.extension() == ".gz") {
    if (path.has_parent_path()) ensure_dir(path.parent_path());
    fs::path tmp = path;
    tmp += ".tmp";
    gzFile f = gzopen(tmp.c_str(), "wb");
    if (!f) throw Error("cannot write " + tmp.string());
    const bool ok = gzwrite(f, data.data(), static_cast<unsigned>(data.size())) == static_cast<int>(data.size());
    gzclose(f);
    if (!ok) throw Error("cannot write " + path.string());
    fs::rename(tmp, path);
  } else {
    write_file_atomic(path, data);
  }
}

std::string header_bytes(uint8_t type, const std::vector<uint32_t>& dims) {
  std::string h{0, 0, static_cast<char>(type), static_cast<char>(dims.size())};
  for (uint32_t d : dims)
    for (int s = 24; s >= 0; s -= 8) h.push_back(static_cast<char>((d >> s) & 0xff));
  return h;
}

}  // namespace

namespace {

void check_range(int64_t& begin, int64_t& end, int64_t count, const fs::path& path) {
  if (end < 0) end = count;
  if (begin < 0 || begin > end || end > count)
    throw InputError(path.string() + ": rows [" + std::to_string(begin) + ", " + std::to_string(end) +
                     ") requested but the file holds " + std::to_string(count) + " (shrink the pool or row ranges)");
}


}  // namespace

static ImageSet read_images(const fs::path& path, int64_t begin, int64_t end, int64_t* total);

ImageSet read_idx_images(const fs::path& path, int64_t begin, int64_t end) { return read_images(path, begin, end, nullptr); }

static ImageSet read_images(const fs::path& path, int64_t begin, int64_t end, int64_t* total) {
  const std::string b = read_bytes(path);
  IdxHeader h = parse_header(b, path);
  if (h.dims.size() != 3)
    throw InputError(path.string() + ": expected an image file (idx3: count, rows, cols) but it has " +
                     std::to_string(h.dims.size()) + " dimension(s); is this a labels file?");
  if (total) *total = h.dims[0];
  if (total && end > static_cast<int64_t>(h.dims[0])) end = h.dims[0];  // the caller reports the mismatch
  check_range(begin, end, h.dims[0], path);
  ImageSet s;
  s.n = end - begin;
  s.height = static_cast<int>(h.dims[1]);
  s.width = static_cast<int>(h.dims[2]);
  s.source = path.string();
  s.pixels.resize(static_cast<size_t>(s.n * s.dim()));
  const size_t elem = h.type == kUbyte ? 1 : 4;
  h.data_offset += static_cast<size_t>(begin * s.dim()) * elem;
  const char* p = b.data() + h.data_offset;
  if (h.type == kUbyte) {
    for (size_t i = 0; i < s.pixels.size(); ++i) s.pixels[i] = static_cast<float>(static_cast<uint8_t>(p[i])) / 255.0f;
  } else {
    for (size_t i = 0; i < s.pixels.size(); ++i) {
      uint32_t u = be32(b, h.data_offset + 4 * i);
      float f;
      std::memcpy(&f, &u, 4);
      if (!std::isfinite(f)) throw InputError(path.string() + ": non-finite pixel at element " + std::to_string(i));
      s.pixels[i] = f;
    }
  }
  s.validate();
  return s;
}

std::vector<int32_t> read_idx_labels(const fs::path& path, int64_t begin, int64_t end) {
  const std::string b = read_bytes(path);
  IdxHeader h = parse_header(b, path);
  if (h.dims.size() != 1 || h.type != kUbyte)
    throw InputError(path.string() + ": expected a labels file (idx1 of unsigned bytes) but it has " +
                     std::to_string(h.dims.size()) + " dimension(s); is this an images file?");
  check_range(begin, end, h.dims[0], path);
  std::vector<int32_t> out(static_cast<size_t>(end - begin));
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(b[h.data_offset + static_cast<size_t>(begin) + i]);
  return out;
}

ImageSet read_idx_pair(const fs::path& images, const fs::path& labels, int64_t begin, int64_t end) {
  const std::vector<int32_t> all = read_idx_labels(labels);
  int64_t total = 0;
  ImageSet s = read_images(images, std::min<int64_t>(begin, static_cast<int64_t>(all.size())), end, &total);
  if (total != static_cast<int64_t>(all.size()))
    throw InputError("mismatched IDX pair: " + images.string() + " has " + std::to_string(total) + " images but " +
                     labels.string() + " has " + std::to_string(all.size()) + " labels");
  check_range(begin, end, total, images);
  std::vector<int32_t> l(all.begin() + begin, all.begin() + end);
  s.set_labels(std::move(l));
  return s;
}

fs::path find_idx_file(const fs::path& dir, const std::string& split, const std::string& kind) {
  if (!fs::is_directory(dir)) throw InputError("IDX dataset folder not found: " + dir.string());
  std::vector<std::string> prefixes{split};
  if (split == "test") prefixes.push_back("t10k");
  std::vector<std::string> tried;
  for (const auto& pre : prefixes)
    for (const char* sep : {"-", "."})
      for (const char* ext : {"", ".gz"}) {
        // MNIST spells it train-images-idx3-ubyte; some mirrors use train-images.idx3-ubyte.
        std::string name = pre + "-" + kind + sep + (kind == "images" ? "idx3" : "idx1") + "-ubyte" + ext;
        tried.push_back(name);
        if (fs::is_regular_file(dir / name)) return dir / name;
      }
  throw InputError("no " + split + " " + kind + " file in " + dir.string() + " (looked for " + tried.front() + " and " +
                   std::to_string(tried.size() - 1) + " variants, e.g. " + tried.back() + ")");
}

ImageSet read_idx_split(const fs::path& dir, const std::string& split, int64_t begin, int64_t end) {
  ImageSet s = read_idx_pair(find_idx_file(dir, split, "images"), find_idx_file(dir, split, "labels"), begin, end);
  s.source = (dir / split).string();
  return s;
}

int64_t idx_split_count(const fs::path& dir, const std::string& split) {
  return static_cast<int64_t>(read_idx_labels(find_idx_file(dir, split, "labels")).size());
}

void write_idx_images(const fs::path& path, const ImageSet& set) {
  std::string b = header_bytes(kUbyte, {static_cast<uint32_t>(set.n), static_cast<uint32_t>(set.height),
                                        static_cast<uint32_t>(set.width)});
  for (float v : set.pixels) b.push_back(static_cast<char>(static_cast<uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f))));
  write_bytes(path, b);
}

void write_idx_labels(const fs::path& path, const std::vector<int32_t>& labels) {
  std::string b = header_bytes(kUbyte, {static_cast<uint32_t>(labels.size())});
  for (int32_t l : labels) b.push_back(static_cast<char>(static_cast<uint8_t>(l)));
  write_bytes(path, b);
}

}  // namespace mlsys::dataopt
