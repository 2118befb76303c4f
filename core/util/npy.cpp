#include "core/util/npy.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <map>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"

namespace mlsys {

static_assert(std::endian::native == std::endian::little, ".npy little-endian elements are read in place");

namespace {

// ---- the header: a Python dict literal such as {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
struct HeaderValue {
  enum Kind { text, boolean, tuple, other } kind = other;
  std::string s;
  bool b = false;
  std::vector<int64_t> ints;
};

class HeaderParser {
 public:
  HeaderParser(std::string_view h, const std::string& where) : h_(h), where_(where) {}

  std::map<std::string, HeaderValue> dict() {
    std::map<std::string, HeaderValue> out;
    expect('{');
    while (true) {
      ws();
      if (peek() == '}') break;
      std::string key = quoted();
      ws();
      expect(':');
      out[key] = value();
      ws();
      if (peek() == ',') ++i_;
      else if (peek() != '}') fail("expected ',' or '}'");
    }
    return out;
  }

 private:
  char peek() const { return i_ < h_.size() ? h_[i_] : '\0'; }
  void ws() {
    while (i_ < h_.size() && (h_[i_] == ' ' || h_[i_] == '\t' || h_[i_] == '\n')) ++i_;
  }
  void expect(char c) {
    ws();
    if (peek() != c) fail(fmt::format("expected '{}'", c));
    ++i_;
  }
  [[noreturn]] void fail(const std::string& msg) const {
    throw InputError(fmt::format("{}: malformed .npy header ({} at character {})", where_, msg, i_));
  }
  std::string quoted() {
    ws();
    const char q = peek();
    if (q != '\'' && q != '"') fail("expected a quoted string");
    const size_t end = h_.find(q, i_ + 1);
    if (end == std::string_view::npos) fail("unterminated string");
    std::string s(h_.substr(i_ + 1, end - i_ - 1));
    i_ = end + 1;
    return s;
  }
  int64_t integer() {
    ws();
    int64_t v = 0;
    size_t digits = 0;
    while (i_ < h_.size() && h_[i_] >= '0' && h_[i_] <= '9') {
      if (v > (INT64_MAX - 9) / 10) fail("dimension too large");
      v = v * 10 + (h_[i_++] - '0');
      ++digits;
    }
    if (digits == 0) fail("expected a non-negative integer dimension");
    if (peek() == 'L') ++i_;  // Python 2 long suffix (format 1.0 files from old numpy)
    return v;
  }
  HeaderValue value() {
    ws();
    HeaderValue v;
    const char c = peek();
    if (c == '\'' || c == '"') {
      v.kind = HeaderValue::text;
      v.s = quoted();
    } else if (h_.substr(i_, 4) == "True" || h_.substr(i_, 5) == "False") {
      v.kind = HeaderValue::boolean;
      v.b = h_[i_] == 'T';
      i_ += v.b ? 4 : 5;
    } else if (c == '(') {
      v.kind = HeaderValue::tuple;
      ++i_;
      while (true) {
        ws();
        if (peek() == ')') break;
        v.ints.push_back(integer());
        ws();
        if (peek() == ',') ++i_;
        else if (peek() != ')') fail("expected ',' or ')' in the shape");
      }
      ++i_;
    } else {
      // A structured dtype (a list of fields) or anything else: skip to the matching close so the
      // caller can say what it was.
      int depth = 0;
      const size_t start = i_;
      for (; i_ < h_.size(); ++i_) {
        const char d = h_[i_];
        if (d == '[' || d == '(' || d == '{') ++depth;
        else if (d == ']' || d == ')' || d == '}') {
          if (depth == 0) break;
          --depth;
        } else if (d == ',' && depth == 0) break;
      }
      v.s = std::string(h_.substr(start, i_ - start));
    }
    return v;
  }

  std::string_view h_;
  const std::string& where_;
  size_t i_ = 0;
};

struct DtypeName {
  const char* descr;
  NpyType type;
  int bytes;
};
constexpr DtypeName kDtypes[] = {{"<f4", NpyType::f4, 4}, {"<f8", NpyType::f8, 8}, {"<i4", NpyType::i4, 4},
                                 {"<i8", NpyType::i8, 8}, {"|b1", NpyType::b1, 1}, {"|u1", NpyType::u1, 1}};

const DtypeName& dtype_of(NpyType t) {
  for (const auto& x : kDtypes)
    if (x.type == t) return x;
  throw Error("npy: unknown element type");
}

const DtypeName& dtype_named(const HeaderValue& descr, const std::string& where) {
  if (descr.kind != HeaderValue::text)
    throw InputError(fmt::format("{}: structured dtype {} is not supported: save each field as its own array", where, descr.s));
  for (const auto& x : kDtypes)
    if (descr.s == x.descr) return x;
  if (descr.s.find('O') != std::string::npos)
    throw InputError(where + ": holds pickled Python objects (dtype object); mlsys never unpickles: save a numeric array instead");
  if (!descr.s.empty() && descr.s[0] == '>')
    throw InputError(fmt::format("{}: big-endian dtype '{}': save it as little-endian (array.astype('<{}'))", where, descr.s, descr.s.substr(1)));
  throw InputError(fmt::format("{}: dtype '{}' is not supported (accepted: <f4 <f8 <i4 <i8 |b1 |u1)", where, descr.s));
}

uint64_t little_endian(std::string_view b, size_t at, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(b[at + static_cast<size_t>(i)]);
  return v;
}

template <class T>
T load(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

std::string gib(uint64_t bytes) { return fmt::format("{:.3g} GiB", static_cast<double>(bytes) / (uint64_t{1} << 30)); }

}  // namespace

uint64_t npy_header_size(std::string_view lead, const std::string& where) {
  static constexpr std::string_view kMagic("\x93NUMPY", 6);
  if (lead.size() < 10 || lead.substr(0, 6) != kMagic) throw InputError(where + ": not a .npy array (no \\x93NUMPY magic)");
  const int major = static_cast<uint8_t>(lead[6]);
  uint64_t size = 0;
  if (major == 1) {
    size = 10 + little_endian(lead, 8, 2);
  } else if (major == 2 || major == 3) {
    if (lead.size() < 12) throw InputError(where + ": truncated .npy header");
    size = 12 + little_endian(lead, 8, 4);
  } else {
    throw InputError(fmt::format("{}: .npy format version {} is not supported (1, 2 or 3)", where, major));
  }
  if (size > kMaxNpyHeaderBytes + kNpyLeadBytes)
    throw InputError(fmt::format("{}: .npy header of {} bytes is longer than the {} mlsys reads (numpy writes a few hundred)", where,
                                 size, kMaxNpyHeaderBytes));
  return size;
}

NpyHeader parse_npy_header(std::string_view header, const std::string& where) {
  NpyHeader h;
  h.header_bytes = npy_header_size(header, where);
  if (header.size() < h.header_bytes) throw InputError(where + ": truncated .npy header");
  const size_t start = static_cast<uint8_t>(header[6]) == 1 ? 10 : 12;
  auto d = HeaderParser(header.substr(start, h.header_bytes - start), where).dict();
  for (const char* k : {"descr", "fortran_order", "shape"})
    if (!d.count(k)) throw InputError(fmt::format("{}: .npy header has no '{}'", where, k));
  const DtypeName& dt = dtype_named(d["descr"], where);
  h.type = dt.type;
  h.descr = dt.descr;
  if (d["fortran_order"].kind != HeaderValue::boolean) throw InputError(where + ": .npy header 'fortran_order' is not True or False");
  if (d["fortran_order"].b)
    throw InputError(where + ": stored in Fortran (column-major) order: save numpy.ascontiguousarray(a) instead");
  if (d["shape"].kind != HeaderValue::tuple) throw InputError(where + ": .npy header 'shape' is not a tuple");
  h.shape = d["shape"].ints;
  // The byte count, refused as soon as it passes the cap (so the product never overflows).
  uint64_t bytes = static_cast<uint64_t>(dt.bytes);
  for (int64_t s : h.shape) {
    if (s != 0 && bytes > kMaxNpyArrayBytes / static_cast<uint64_t>(s))
      throw InputError(fmt::format("{}: shape ({}) of {} needs more than the {} ({} bytes) mlsys reads as one array (kMaxNpyArrayBytes): "
                                   "a damaged header, or an array to split or subsample before use",
                                   where, fmt::join(h.shape, ", "), h.descr, gib(kMaxNpyArrayBytes), kMaxNpyArrayBytes));
    bytes *= static_cast<uint64_t>(s);
  }
  h.data_bytes = bytes;
  return h;
}

NpyArray parse_npy(std::string_view bytes, const std::string& where) {
  const NpyHeader h = parse_npy_header(bytes, where);
  const uint64_t have = bytes.size() - h.header_bytes;
  if (have != h.data_bytes)
    throw InputError(fmt::format("{}: holds {} data bytes but its shape and dtype {} need {} (truncated or damaged)", where, have,
                                 h.descr, h.data_bytes));
  NpyArray a;
  a.where = where;
  a.type = h.type;
  a.shape = h.shape;
  a.bytes = bytes.substr(h.header_bytes);
  return a;
}

NpyArray read_npy(const std::filesystem::path& path) {
  std::string bytes;
  try {
    bytes = read_file(path, kMaxNpyHeaderBytes + kNpyLeadBytes + kMaxNpyArrayBytes);
  } catch (const InputError&) {
    throw;
  } catch (const Error& e) {
    throw InputError(e.what());
  }
  return parse_npy(bytes, path.string());
}

int64_t NpyArray::size() const {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

int64_t NpyArray::row_size() const {
  int64_t p = 1;
  for (size_t i = 1; i < shape.size(); ++i) p *= shape[i];
  return p;
}

double NpyArray::value(int64_t i) const {
  const char* p = bytes.data();
  switch (type) {
    case NpyType::f4: return load<float>(p + 4 * i);
    case NpyType::f8: return load<double>(p + 8 * i);
    case NpyType::i4: return load<int32_t>(p + 4 * i);
    case NpyType::i8: return static_cast<double>(load<int64_t>(p + 8 * i));
    case NpyType::b1: return p[i] != 0 ? 1.0 : 0.0;
    case NpyType::u1: return static_cast<uint8_t>(p[i]);
  }
  return 0;
}

std::vector<double> NpyArray::doubles() const {
  std::vector<double> v(static_cast<size_t>(size()));
  for (int64_t i = 0; i < size(); ++i) v[i] = value(i);
  return v;
}

std::vector<int64_t> NpyArray::ints() const {
  const int64_t n = size();
  std::vector<int64_t> v(static_cast<size_t>(n));
  if (type == NpyType::i8) {
    for (int64_t i = 0; i < n; ++i) v[i] = load<int64_t>(bytes.data() + 8 * i);
    return v;
  }
  const bool floating = type == NpyType::f4 || type == NpyType::f8;
  for (int64_t i = 0; i < n; ++i) {
    const double x = value(i);
    if (floating && (!(std::abs(x) < 9.2e18) || x != std::floor(x)))
      throw InputError(fmt::format("{}: element {} is {}, expected an integer", where, i, x));
    v[i] = static_cast<int64_t>(x);
  }
  return v;
}

std::vector<int64_t> NpyArray::ints(const IntRule& rule) const {
  if (type == NpyType::b1)
    throw InputError(fmt::format("{}: is a boolean array, expected integers ({}); save it with an integer dtype", where,
                                 rule.field));
  std::vector<int64_t> v = ints();
  for (size_t i = 0; i < v.size(); ++i)
    if (const NumberProblem p = check_number(v[i], rule); p != NumberProblem::kOk)
      throw InputError(number_error(fmt::format("{}: element {}", where, i), std::to_string(v[i]), rule, p));
  return v;
}

std::vector<float> NpyArray::floats() const {
  const int64_t n = size();
  std::vector<float> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    v[i] = static_cast<float>(value(i));
    if (!std::isfinite(v[i]))
      throw InputError(fmt::format("{}: element {} is {}, expected a finite float32 value", where, i, value(i)));
  }
  return v;
}

std::string npy_file(NpyType type, const std::vector<int64_t>& shape, std::string_view data) {
  // numpy's tuple syntax: "(4,)" for one dimension, "(2,3)" for more, "()" for a scalar.
  std::string dims = fmt::format("{}", fmt::join(shape, ","));
  if (shape.size() == 1) dims += ",";
  std::string header = fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({}), }}", dtype_of(type).descr, dims);
  // The magic, version, length and header together are padded to a multiple of 64 bytes.
  const size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header.push_back('\n');
  std::string out("\x93NUMPY\x01\x00", 8);
  out.push_back(static_cast<char>(header.size() & 0xff));
  out.push_back(static_cast<char>((header.size() >> 8) & 0xff));
  out += header;
  out += data;
  return out;
}

namespace {

template <class T>
void write_elements(const std::filesystem::path& path, NpyType type, const std::vector<int64_t>& shape, const std::vector<T>& data) {
  int64_t count = 1;
  for (int64_t s : shape) count *= s;
  if (count != static_cast<int64_t>(data.size()))
    throw Error(fmt::format("write_npy: shape ({}) does not match {} values for {}", fmt::join(shape, ", "), data.size(), path.string()));
  write_file_atomic(path, npy_file(type, shape, {reinterpret_cast<const char*>(data.data()), data.size() * sizeof(T)}));
}

}  // namespace

void write_npy(const std::filesystem::path& path, const std::vector<int64_t>& shape, const std::vector<float>& data) {
  write_elements(path, NpyType::f4, shape, data);
}

void write_npy(const std::filesystem::path& path, const std::vector<int64_t>& shape, const std::vector<int32_t>& data) {
  write_elements(path, NpyType::i4, shape, data);
}

}  // namespace mlsys
