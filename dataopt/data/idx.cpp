#include "dataopt/data/idx.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <type_traits>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "core/util/number_parse.hpp"
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

uint32_t be32(const char* p) {
  auto u = [&](size_t i) { return static_cast<uint32_t>(static_cast<uint8_t>(p[i])); };
  return (u(0) << 24) | (u(1) << 16) | (u(2) << 8) | u(3);
}
uint32_t be32(const std::string& b, size_t at) { return be32(b.data() + at); }

// `head` holds the file's first bytes (at least the whole header when the file has one);
// `total` is the file's (uncompressed) size in bytes.
IdxHeader parse_header(const std::string& head, uint64_t total, const fs::path& path) {
  const std::string& b = head;
  if (b.size() < 4 || b[0] != 0 || b[1] != 0)
    throw InputError(path.string() + ": not an IDX file (the first two bytes must be zero; got a " +
                     std::to_string(total) + "-byte file)");
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
  if (total < h.data_offset || total - h.data_offset != count * elem)
    throw InputError(path.string() + ": IDX header promises " + std::to_string(count * elem) + " data bytes but the file has " +
                     std::to_string(total < h.data_offset ? 0 : total - h.data_offset) + " (truncated or mismatched file)");
  return h;
}

IdxHeader parse_header(const std::string& b, const fs::path& path) { return parse_header(b, b.size(), path); }

// Reads an IDX file piecewise: the header, then only the byte ranges asked for, in increasing
// order. gzread passes plain files through and gzseek on them is a real seek, so a plain file costs
// O(bytes read); a gzipped one is inflated from its start up to the last byte asked for and no
// further (never held whole in memory). The size check uses the file size, or for gzip the
// uncompressed size stored in its last four bytes (ISIZE, modulo 2^32).
class IdxReader {
 public:
  explicit IdxReader(const fs::path& path) : path_(path) {
    const uint64_t bytes = check_input_file(path);  // exists, a regular file (core/util/fs.hpp)
    f_ = gzopen(path.c_str(), "rb");
    if (!f_) throw InputError("cannot open " + path.string());
    owner_.reset(f_);  // closed however the constructor ends: a bad header throws below
    gzbuffer(f_, 1 << 18);
    // The magic, then exactly the dimensions it announces, so the data starts at the read position.
    std::string head(4, '\0');
    head.resize(static_cast<size_t>(std::max(0, gzread(f_, head.data(), 4))));
    const size_t nd = head.size() == 4 ? static_cast<uint8_t>(head[3]) : 0;
    if (head.size() == 4 && head[0] == 0 && head[1] == 0 && nd >= 1 && nd <= 4) {
      head.resize(4 + 4 * nd);
      head.resize(4 + static_cast<size_t>(std::max(0, gzread(f_, head.data() + 4, static_cast<unsigned>(4 * nd)))));
    }
    pos_ = head.size();
    header_ = parse_header(head, stored_size(head, bytes), path);
  }
  IdxReader(const IdxReader&) = delete;
  IdxReader& operator=(const IdxReader&) = delete;

  const IdxHeader& header() const { return header_; }

  // `n` bytes at data byte `at` (counted from the first element); `at` never decreases.
  void read(uint64_t at, char* dst, size_t n) {
    const uint64_t offset = header_.data_offset + at;
    if (offset != pos_ && gzseek(f_, static_cast<z_off_t>(offset), SEEK_SET) < 0) fail();
    pos_ = offset;
    while (n > 0) {
      const unsigned chunk = static_cast<unsigned>(std::min<size_t>(n, 1u << 30));
      const int got = gzread(f_, dst, chunk);
      if (got <= 0) fail();
      dst += got, n -= static_cast<size_t>(got), pos_ += static_cast<uint64_t>(got);
    }
  }

 private:
  // The (uncompressed) file size from its size on disk, `bytes`; `head` is the first bytes, for
  // gzip's 32-bit ISIZE.
  uint64_t stored_size(const std::string& head, uint64_t bytes) {
    if (gzdirect(f_)) return bytes;
    std::ifstream in(path_, std::ios::binary);
    char tail[4] = {0, 0, 0, 0};
    if (bytes >= 4) in.seekg(static_cast<std::streamoff>(bytes - 4)).read(tail, 4);
    uint64_t isize = 0;
    for (int i = 3; i >= 0; --i) isize = isize << 8 | static_cast<uint8_t>(tail[i]);
    // ISIZE is the size modulo 2^32: take the size the header promises when it agrees with it.
    if (head.size() < 4 || head[0] != 0 || head[1] != 0) return isize;
    const int nd = static_cast<uint8_t>(head[3]);
    if (nd < 1 || nd > 4 || head.size() < 4 + 4 * static_cast<size_t>(nd)) return isize;
    uint64_t promised = static_cast<uint8_t>(head[2]) == kFloat ? 4 : 1;
    for (int i = 0; i < nd; ++i) promised *= be32(head.data() + 4 + 4 * i);
    promised += 4 + 4 * static_cast<uint64_t>(nd);
    if ((promised & 0xffffffffu) == isize) return promised;
    // The last four bytes of a truncated or damaged .gz are not its ISIZE: count what really
    // inflates (the error path only) so the message states a real size or the gzip error.
    return inflated_size();
  }
  uint64_t inflated_size() {
    gzFile g = gzopen(path_.c_str(), "rb");
    if (!g) throw InputError("cannot open " + path_.string());
    std::vector<char> buf(1 << 18);
    uint64_t total = 0;
    int got = 0;
    while ((got = gzread(g, buf.data(), static_cast<unsigned>(buf.size()))) > 0) total += static_cast<uint64_t>(got);
    int err = Z_OK;
    const char* m = gzerror(g, &err);
    const std::string msg = m ? m : "";
    gzclose(g);
    if (got < 0 || err != Z_OK)
      throw InputError(path_.string() + ": truncated or corrupt gzip file (" + (msg.empty() ? "unexpected end of file" : msg) +
                       " after " + std::to_string(total) + " uncompressed bytes)");
    return total;
  }
  [[noreturn]] void fail() {
    int err = Z_OK;
    const char* msg = gzerror(f_, &err);
    throw InputError(path_.string() + ": cannot read the IDX data (" +
                     (err != Z_OK && err != Z_BUF_ERROR ? std::string(msg) : std::string("unexpected end of file")) +
                     "; truncated or corrupt file?)");
  }

  struct GzClose {
    void operator()(gzFile f) const { gzclose(f); }
  };
  fs::path path_;
  // The owner closes the file even when the constructor throws (a destructor would not run then:
  // fuzz_idx found the leaked handle and buffers on its fourth input).
  std::unique_ptr<std::remove_pointer_t<gzFile>, GzClose> owner_;
  gzFile f_ = nullptr;
  uint64_t pos_ = 0;
  IdxHeader header_;
};

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

namespace {

// The images at `rows` (sorted, distinct, in range: checked by the callers) of an open file.
ImageSet read_image_rows(IdxReader& in, const fs::path& path, const std::vector<int64_t>& rows) {
  const IdxHeader& h = in.header();
  ImageSet s;
  s.n = static_cast<int64_t>(rows.size());
  s.height = static_cast<int>(h.dims[1]);
  s.width = static_cast<int>(h.dims[2]);
  s.source = path.string();
  const auto dim = static_cast<size_t>(s.dim());
  const size_t elem = h.type == kUbyte ? 1 : 4;
  s.pixels.resize(static_cast<size_t>(s.n) * dim);
  std::vector<char> raw;
  for (size_t i = 0; i < rows.size();) {
    size_t j = i + 1;  // a run of consecutive rows is one read
    while (j < rows.size() && rows[j] == rows[j - 1] + 1) ++j;
    raw.resize((j - i) * dim * elem);
    in.read(static_cast<uint64_t>(rows[i]) * dim * elem, raw.data(), raw.size());
    float* out = s.pixels.data() + i * dim;
    if (h.type == kUbyte) {
      for (size_t e = 0; e < raw.size(); ++e) out[e] = static_cast<float>(static_cast<uint8_t>(raw[e])) / 255.0f;
    } else {
      for (size_t e = 0; e < raw.size() / 4; ++e) {
        const uint32_t u = be32(raw.data() + 4 * e);
        float f;
        std::memcpy(&f, &u, 4);
        if (!std::isfinite(f))
          throw InputError(path.string() + ": non-finite pixel at element " + std::to_string((static_cast<size_t>(rows[i]) * dim) + e));
        out[e] = f;
      }
    }
    i = j;
  }
  s.validate();
  return s;
}

// A C-class label file holds the bytes 0 to C-1, each present (MNIST's 10, Fashion's 10). A byte
// past a class no image has (200 among 0..9) is a damaged label, not class 200 of a 201-class set:
// it would leave 190 empty classes and the image out of its real one. The rule is the byte range
// [0, first class without images - 1] (core/util/number_parse.hpp), over the whole file.
void check_label_bytes(const std::string& b, const IdxHeader& h, const fs::path& path) {
  const auto* labels = reinterpret_cast<const uint8_t*>(b.data() + h.data_offset);
  const size_t n = h.dims[0];
  bool present[256] = {};
  for (size_t i = 0; i < n; ++i) present[labels[i]] = true;
  int64_t classes = 0;
  while (classes < 256 && present[classes]) ++classes;
  const IntRule rule{"label", 0, classes - 1};
  if (const int64_t i = first_refused(labels, n, rule); i >= 0)
    throw InputError(number_error(path.string() + ": label of image " + std::to_string(i), std::to_string(labels[i]), rule,
                                  NumberProblem::kTooLarge) +
                     ": no image has label " + std::to_string(classes) + ", so the labels stop at " +
                     std::to_string(classes - 1) + " (a damaged labels file?)");
}

void require_images(const IdxHeader& h, const fs::path& path) {
  if (h.dims.size() != 3)
    throw InputError(path.string() + ": expected an image file (idx3: count, rows, cols) but it has " +
                     std::to_string(h.dims.size()) + " dimension(s); is this a labels file?");
}

}  // namespace

std::vector<int64_t> iota_rows(int64_t begin, int64_t end) {
  std::vector<int64_t> r(static_cast<size_t>(std::max<int64_t>(0, end - begin)));
  for (size_t i = 0; i < r.size(); ++i) r[i] = begin + static_cast<int64_t>(i);
  return r;
}

ImageSet read_idx_images(const fs::path& path, int64_t begin, int64_t end) {
  IdxReader in(path);
  require_images(in.header(), path);
  check_range(begin, end, in.header().dims[0], path);
  return read_image_rows(in, path, iota_rows(begin, end));
}

std::vector<int32_t> read_idx_labels(const fs::path& path, int64_t begin, int64_t end) {
  const std::string b = read_bytes(path);
  IdxHeader h = parse_header(b, path);
  if (h.dims.size() != 1 || h.type != kUbyte)
    throw InputError(path.string() + ": expected a labels file (idx1 of unsigned bytes) but it has " +
                     std::to_string(h.dims.size()) + " dimension(s); is this an images file?");
  check_range(begin, end, h.dims[0], path);
  check_label_bytes(b, h, path);
  std::vector<int32_t> out(static_cast<size_t>(end - begin));
  for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(b[h.data_offset + static_cast<size_t>(begin) + i]);
  return out;
}

namespace {

// The labels of an open images file, checked to pair up with it.
std::vector<int32_t> paired_labels(const IdxReader& in, const fs::path& images, const fs::path& labels) {
  std::vector<int32_t> all = read_idx_labels(labels);
  require_images(in.header(), images);
  const int64_t total = in.header().dims[0];
  if (total != static_cast<int64_t>(all.size()))
    throw InputError("mismatched IDX pair: " + images.string() + " has " + std::to_string(total) + " images but " +
                     labels.string() + " has " + std::to_string(all.size()) + " labels");
  return all;
}

}  // namespace

ImageSet read_idx_pair(const fs::path& images, const fs::path& labels, int64_t begin, int64_t end) {
  IdxReader in(images);
  const std::vector<int32_t> all = paired_labels(in, images, labels);
  const auto total = static_cast<int64_t>(all.size());
  check_range(begin, end, total, images);
  ImageSet s = read_image_rows(in, images, iota_rows(begin, end));
  s.set_labels(std::vector<int32_t>(all.begin() + begin, all.begin() + end));
  return s;
}

ImageSet read_idx_pair_rows(const fs::path& images, const fs::path& labels, const std::vector<int64_t>& rows) {
  IdxReader in(images);
  const std::vector<int32_t> all = paired_labels(in, images, labels);
  const auto total = static_cast<int64_t>(all.size());
  std::vector<int64_t> sorted = rows;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  if (!sorted.empty() && (sorted.front() < 0 || sorted.back() >= total))
    throw InputError(images.string() + ": row " + std::to_string(sorted.front() < 0 ? sorted.front() : sorted.back()) +
                     " requested but the file holds " + std::to_string(total) + " (shrink the pool or row ranges)");
  ImageSet s = read_image_rows(in, images, sorted);
  std::vector<int32_t> l;
  for (int64_t r : sorted) l.push_back(all[static_cast<size_t>(r)]);
  s.set_labels(std::move(l));
  if (sorted == rows) return s;
  std::vector<int64_t> at;  // position of each requested row in `sorted`
  for (int64_t r : rows) at.push_back(std::lower_bound(sorted.begin(), sorted.end(), r) - sorted.begin());
  return s.subset(at);
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

fs::path uncompressed_copy(const fs::path& file, const fs::path& cache_dir) {
  if (cache_dir.empty()) return file;
  {
    std::ifstream in(file, std::ios::binary);
    char magic[2] = {0, 0};
    if (!in.read(magic, 2) || static_cast<uint8_t>(magic[0]) != 0x1f || static_cast<uint8_t>(magic[1]) != 0x8b) return file;
  }
  // Named after the source's full path, size and time stamp, so a changed source makes a new copy.
  const fs::path src = fs::absolute(file);
  const std::string stamp = src.string() + "|" + std::to_string(fs::file_size(src)) + "|" +
                            std::to_string(fs::last_write_time(src).time_since_epoch().count());
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (char c : stamp) h = (h ^ static_cast<uint8_t>(c)) * 1099511628211ull;
  const fs::path copy = cache_dir / (fmt::format("{:016x}-", h) + src.stem().string());
  static std::mutex mu;  // inproc ranks share the process id that names write_file_atomic's temp file
  std::lock_guard<std::mutex> lock(mu);
  if (!fs::is_regular_file(copy)) write_file_atomic(copy, read_bytes(file));
  return copy;
}

ImageSet read_idx_split(const fs::path& dir, const std::string& split, int64_t begin, int64_t end, const fs::path& cache_dir) {
  ImageSet s = read_idx_pair(uncompressed_copy(find_idx_file(dir, split, "images"), cache_dir),
                             find_idx_file(dir, split, "labels"), begin, end);
  s.source = (dir / split).string();
  return s;
}

ImageSet read_idx_split_rows(const fs::path& dir, const std::string& split, const std::vector<int64_t>& rows,
                             const fs::path& cache_dir) {
  ImageSet s = read_idx_pair_rows(uncompressed_copy(find_idx_file(dir, split, "images"), cache_dir),
                                  find_idx_file(dir, split, "labels"), rows);
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
