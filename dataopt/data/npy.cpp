#include "dataopt/data/npy.hpp"

#include <cmath>
#include <cstring>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"
#include "dataopt/data/bytes.hpp"

namespace mlsys::dataopt {

namespace fs = std::filesystem;

int64_t NpyArray::row_size() const {
  int64_t p = 1;
  for (size_t i = 1; i < shape.size(); ++i) p *= shape[i];
  return p;
}

namespace {

// Value of `key` in the header dict, e.g. 'descr': '<f4' -> <f4 (quotes kept off).
std::string dict_value(const std::string& header, const std::string& key, const fs::path& path) {
  size_t k = header.find("'" + key + "'");
  if (k == std::string::npos) throw InputError(path.string() + ": .npy header has no '" + key + "' entry");
  size_t colon = header.find(':', k);
  size_t start = header.find_first_not_of(" ", colon + 1);
  if (start == std::string::npos) throw InputError(path.string() + ": malformed .npy header");
  if (header[start] == '(') return header.substr(start + 1, header.find(')', start) - start - 1);
  size_t end = header.find_first_of(",}", start);
  std::string v = header.substr(start, end - start);
  if (!v.empty() && (v.front() == '\'' || v.front() == '"')) v = v.substr(1, v.size() - 2);
  return v;
}

std::string npy_bytes(const std::string& descr, const std::vector<int64_t>& shape, const void* data, size_t bytes) {
  std::string dims;
  for (size_t i = 0; i < shape.size(); ++i) dims += std::to_string(shape[i]) + (shape.size() == 1 || i + 1 < shape.size() ? "," : "");
  if (!dims.empty() && shape.size() > 1 && dims.back() == ',') dims.pop_back();
  std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  // The magic, version, length and header together are padded to a multiple of 64 bytes.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  std::string out("\x93NUMPY\x01\x00", 8);
  out.push_back(static_cast<char>(header.size() & 0xff));
  out.push_back(static_cast<char>((header.size() >> 8) & 0xff));
  out += header;
  out.append(static_cast<const char*>(data), bytes);
  return out;
}

}  // namespace

NpyArray read_npy(const fs::path& path) {
  const std::string b = read_bytes(path);
  if (b.size() < 10 || std::memcmp(b.data(), "\x93NUMPY", 6) != 0)
    throw InputError(path.string() + ": not a .npy file (missing the \\x93NUMPY magic)");
  const int major = static_cast<uint8_t>(b[6]);
  size_t hlen = 0, hstart = 0;
  if (major == 1) {
    hlen = static_cast<uint8_t>(b[8]) | (static_cast<size_t>(static_cast<uint8_t>(b[9])) << 8);
    hstart = 10;
  } else if (major == 2 || major == 3) {
    if (b.size() < 12) throw InputError(path.string() + ": truncated .npy header");
    for (int i = 3; i >= 0; --i) hlen = (hlen << 8) | static_cast<uint8_t>(b[8 + static_cast<size_t>(i)]);
    hstart = 12;
  } else {
    throw InputError(path.string() + ": unsupported .npy version " + std::to_string(major));
  }
  if (b.size() < hstart + hlen) throw InputError(path.string() + ": truncated .npy header");
  const std::string header = b.substr(hstart, hlen);
  const std::string descr = dict_value(header, "descr", path);
  if (dict_value(header, "fortran_order", path).find("True") != std::string::npos)
    throw InputError(path.string() + ": Fortran-order arrays are not supported; save with np.ascontiguousarray");
  NpyArray a;
  int64_t count = 1;
  for (const std::string& part : [&] {
         std::vector<std::string> parts;
         std::string cur;
         for (char c : dict_value(header, "shape", path)) {
           if (c == ',') parts.push_back(cur), cur.clear();
           else if (c != ' ') cur.push_back(c);
         }
         parts.push_back(cur);
         return parts;
       }()) {
    if (part.empty()) continue;
    try {
      a.shape.push_back(std::stoll(part));
    } catch (const std::exception&) {
      throw InputError(path.string() + ": bad shape entry '" + part + "' in .npy header");
    }
    count *= a.shape.back();
  }
  const std::string kind = descr.size() >= 2 ? descr.substr(1) : descr;
  if (descr.size() >= 2 && descr[0] == '>')
    throw InputError(path.string() + ": big-endian .npy arrays are not supported (dtype " + descr + ")");
  size_t elem = kind == "f4" || kind == "i4" ? 4 : kind == "f8" || kind == "i8" ? 8 : kind == "u1" ? 1 : 0;
  if (elem == 0)
    throw InputError(path.string() + ": unsupported .npy dtype '" + descr + "' (use float32, float64, int32, int64 or uint8)");
  const char* p = b.data() + hstart + hlen;
  if (b.size() - hstart - hlen != static_cast<size_t>(count) * elem)
    throw InputError(path.string() + ": .npy header promises " + std::to_string(count) + " elements of " +
                     std::to_string(elem) + " bytes but the data is " + std::to_string(b.size() - hstart - hlen) +
                     " bytes (truncated file?)");
  a.data.resize(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    const char* e = p + static_cast<size_t>(i) * elem;
    double v = 0;
    if (kind == "f4") { float f; std::memcpy(&f, e, 4); v = f; }
    else if (kind == "f8") { std::memcpy(&v, e, 8); }
    else if (kind == "i4") { int32_t x; std::memcpy(&x, e, 4); v = x; }
    else if (kind == "i8") { int64_t x; std::memcpy(&x, e, 8); v = static_cast<double>(x); }
    else { v = static_cast<uint8_t>(*e); }
    if (!std::isfinite(v)) throw InputError(path.string() + ": non-finite value at element " + std::to_string(i));
    a.data[static_cast<size_t>(i)] = static_cast<float>(v);
  }
  return a;
}

void write_npy(const fs::path& path, const std::vector<int64_t>& shape, const std::vector<float>& data) {
  int64_t count = 1;
  for (int64_t s : shape) count *= s;
  if (count != static_cast<int64_t>(data.size())) throw Error("write_npy: shape does not match data for " + path.string());
  write_file_atomic(path, npy_bytes("<f4", shape, data.data(), data.size() * sizeof(float)));
}

void write_npy(const fs::path& path, const Tensor& t) {
  std::vector<int64_t> shape;
  for (int i = 0; i < t.rank(); ++i) shape.push_back(t.dim(i));
  const std::vector<float> v = t.to_vector<float>();  // from any device
  write_file_atomic(path, npy_bytes("<f4", shape, v.data(), v.size() * sizeof(float)));
}

void write_npy_int(const fs::path& path, const std::vector<int32_t>& data) {
  write_file_atomic(path, npy_bytes("<i4", {static_cast<int64_t>(data.size())}, data.data(), data.size() * 4));
}

}  // namespace mlsys::dataopt
