#include "core/util/npz.hpp"

#include <fmt/format.h>
#include <zip.h>

#include <algorithm>

#include "core/util/error.hpp"
#include "core/util/fs.hpp"

namespace mlsys {

namespace fs = std::filesystem;

// Deflate cannot expand data by more than about 1032:1; a larger claimed size is a damaged or
// crafted header, refused before anything is inflated.
constexpr uint64_t kMaxDeflateRatio = 1032;

struct NpzArchive::Zip {
  zip_t* za = nullptr;
  std::string bytes;         // from_bytes: the archive itself (libzip reads it in place)
  uint64_t archive_size = 0;
  ~Zip() {
    if (za) zip_discard(za);  // read-only: nothing to write back
  }
};

namespace {

std::string zip_message(int code) {
  zip_error_t e;
  zip_error_init_with_code(&e, code);
  std::string s = zip_error_strerror(&e);
  zip_error_fini(&e);
  return s;
}

// What a libzip error code means for an archive the user gave.
std::string explain(zip_error_t* e) {
  const int code = zip_error_code_zip(e);
  const std::string lib = zip_error_strerror(e);
  switch (code) {
    case ZIP_ER_CRC: return "CRC mismatch (damaged archive)";
    case ZIP_ER_NOZIP: return "not a .npz (ZIP) archive: no end-of-directory record (" + lib + ")";
    case ZIP_ER_INCONS: return "damaged ZIP archive (" + lib + ")";
    case ZIP_ER_EOF:
    case ZIP_ER_ZLIB: return "truncated or damaged ZIP member (" + lib + ")";
    case ZIP_ER_COMPNOTSUPP: return "compression method not supported: stored or deflate (numpy.savez / savez_compressed write those)";
    case ZIP_ER_ENCRNOTSUPP: return "encrypted ZIP member: save the arrays without encryption";
    case ZIP_ER_MEMORY: return "out of memory reading the archive";
    default: return "cannot read the ZIP archive (" + lib + ")";
  }
}

// One member open for reading: reads exactly what is asked or names what went wrong.
class Member {
 public:
  Member(zip_t* za, uint64_t index, uint64_t declared, const std::string& where) : declared_(declared), where_(where) {
    f_ = zip_fopen_index(za, index, 0);
    if (!f_) throw InputError(where + ": " + explain(zip_get_error(za)));
  }
  ~Member() { zip_fclose(f_); }
  Member(const Member&) = delete;
  Member& operator=(const Member&) = delete;

  void read(char* out, uint64_t n) {
    while (n > 0) {
      const zip_int64_t got = zip_fread(f_, out, n);
      if (got < 0) fail();
      if (got == 0) throw InputError(fmt::format("{}: truncated ZIP member: its data ends after {} of the {} bytes it declares", where_, read_, declared_));
      out += got;
      n -= static_cast<uint64_t>(got);
      read_ += static_cast<uint64_t>(got);
    }
  }
  // At the recorded end the stream must end too; reading past it is when libzip checks the CRC.
  void expect_end() {
    char c;
    const zip_int64_t got = zip_fread(f_, &c, 1);
    if (got < 0) fail();
    if (got > 0) throw InputError(where_ + ": damaged deflate data (longer than recorded)");
  }

 private:
  // libzip checks the CRC when the stream ends: ending early is a cut member, not a flipped bit.
  [[noreturn]] void fail() {
    zip_error_t* e = zip_file_get_error(f_);
    if (zip_error_code_zip(e) == ZIP_ER_CRC && read_ < declared_)
      throw InputError(fmt::format("{}: truncated ZIP member: its data ends after {} of the {} bytes it declares", where_, read_, declared_));
    throw InputError(where_ + ": " + explain(e));
  }

  zip_file_t* f_ = nullptr;
  uint64_t declared_ = 0, read_ = 0;
  const std::string& where_;
};

// The directory's sizes, checked before the member is opened: nothing read yet depends on them.
void check_declared_size(const zip_stat_t& st, uint64_t archive_size, const std::string& where) {
  constexpr zip_uint64_t kNeed = ZIP_STAT_SIZE | ZIP_STAT_COMP_SIZE | ZIP_STAT_COMP_METHOD;
  if ((st.valid & kNeed) != kNeed) throw InputError(where + ": damaged ZIP directory (the member's sizes are unknown)");
  if (st.comp_method != ZIP_CM_STORE && st.comp_method != ZIP_CM_DEFLATE)
    throw InputError(fmt::format("{}: ZIP compression method {} is not supported (stored or deflate; numpy.savez / savez_compressed write those)",
                                 where, st.comp_method));
  const uint64_t cap = kMaxNpyArrayBytes + kMaxNpyHeaderBytes + kNpyLeadBytes;
  if (st.size > cap)
    throw InputError(fmt::format("{}: member {} declares {} bytes uncompressed, more than the {} bytes (a {} GiB array and its header) "
                                 "mlsys reads as one array (kMaxNpyArrayBytes, core/util/npy.hpp); refused before inflating: "
                                 "split or subsample the array, or check that the archive is intact",
                                 where, st.name, st.size, cap, kMaxNpyArrayBytes >> 30));
  if (st.comp_size > archive_size)
    throw InputError(fmt::format("{}: truncated or damaged archive (the member's {} compressed bytes exceed the {}-byte file)", where,
                                 st.comp_size, archive_size));
  if (st.comp_method == ZIP_CM_STORE && st.comp_size != st.size)
    throw InputError(where + ": damaged ZIP member (stored sizes differ)");
  if (st.comp_method == ZIP_CM_DEFLATE && st.size > st.comp_size * kMaxDeflateRatio + 64)
    throw InputError(fmt::format("{}: damaged ZIP member ({} packed bytes cannot inflate to the {} it claims: deflate expands at most {}:1); "
                                 "refused before inflating",
                                 where, st.comp_size, st.size, kMaxDeflateRatio));
}

}  // namespace

NpzArchive::NpzArchive(std::unique_ptr<Zip> zip, std::string name) : zip_(std::move(zip)), name_(std::move(name)) {
  if (zip_->archive_size == 0) throw InputError(name_ + ": not a .npz (ZIP) archive: the file is empty");
  const zip_int64_t n = zip_get_num_entries(zip_->za, 0);
  for (zip_int64_t i = 0; i < n; ++i) {
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(zip_->za, static_cast<zip_uint64_t>(i), 0, &st) != 0 || !(st.valid & ZIP_STAT_NAME))
      throw InputError(fmt::format("{}: damaged ZIP directory (entry {})", name_, i));
    const std::string member = st.name;
    if ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE)
      throw InputError(fmt::format("{}: member {} is encrypted", name_, member));
    std::string key = member.size() > 4 && member.ends_with(".npy") ? member.substr(0, member.size() - 4) : member;
    if (!entries_.emplace(std::move(key), static_cast<uint64_t>(i)).second)
      throw InputError(fmt::format("{}: two members are named {}", name_, member));
  }
}

NpzArchive::NpzArchive(NpzArchive&&) noexcept = default;
NpzArchive& NpzArchive::operator=(NpzArchive&&) noexcept = default;
NpzArchive::~NpzArchive() = default;

NpzArchive NpzArchive::open(const fs::path& file) {
  check_input_file(file);  // exists, a regular file
  std::error_code ec;
  auto zip = std::make_unique<Zip>();
  zip->archive_size = fs::file_size(file, ec);
  if (ec) throw InputError(fmt::format("cannot read {}: {}", file.string(), ec.message()));
  if (zip->archive_size > 0) {
    int code = 0;
    zip->za = zip_open(file.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &code);
    if (!zip->za) {
      zip_error_t e;
      zip_error_init_with_code(&e, code);
      const std::string why = code == ZIP_ER_OPEN || code == ZIP_ER_READ ? "cannot read it (" + zip_message(code) + ")" : explain(&e);
      zip_error_fini(&e);
      throw InputError(file.string() + ": " + why);
    }
  }
  return NpzArchive(std::move(zip), file.string());
}

NpzArchive NpzArchive::from_bytes(std::string bytes, std::string name) {
  auto zip = std::make_unique<Zip>();
  zip->bytes = std::move(bytes);
  zip->archive_size = zip->bytes.size();
  if (zip->archive_size > 0) {
    zip_error_t e;
    zip_error_init(&e);
    zip_source_t* src = zip_source_buffer_create(zip->bytes.data(), zip->bytes.size(), 0, &e);
    if (src) zip->za = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &e);
    if (!zip->za) {
      if (src) zip_source_free(src);
      const std::string why = explain(&e);
      zip_error_fini(&e);
      throw InputError(name + ": " + why);
    }
    zip_error_fini(&e);
  }
  return NpzArchive(std::move(zip), std::move(name));
}

std::vector<std::string> NpzArchive::keys() const {
  std::vector<std::string> k;
  for (const auto& [key, index] : entries_) k.push_back(key);
  return k;
}

NpyArray NpzArchive::array(const std::string& key) const {
  auto it = entries_.find(key);
  if (it == entries_.end()) throw InputError(fmt::format("{}: no array named '{}'", name_, key));
  const std::string where = name_ + ": " + key;
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat_index(zip_->za, it->second, 0, &st) != 0) throw InputError(where + ": " + explain(zip_get_error(zip_->za)));
  check_declared_size(st, zip_->archive_size, where);

  // The header first (its lead says how long it is), then the data its shape needs.
  Member m(zip_->za, it->second, st.size, where);
  std::string head(std::min<uint64_t>(st.size, kNpyLeadBytes), '\0');
  m.read(head.data(), head.size());
  const uint64_t header_size = npy_header_size(head, where);
  if (header_size > st.size) throw InputError(where + ": truncated .npy header");
  if (header_size > head.size()) {
    const size_t had = head.size();
    head.resize(header_size);
    m.read(head.data() + had, header_size - had);
  }
  const NpyHeader h = parse_npy_header(head, where);
  if (st.size - header_size != h.data_bytes)
    throw InputError(fmt::format("{}: holds {} data bytes but its shape and dtype {} need {} (truncated or damaged)", where,
                                 st.size - header_size, h.descr, h.data_bytes));
  NpyArray a;
  a.where = where;
  a.type = h.type;
  a.shape = h.shape;
  a.bytes = head.substr(header_size);  // a header shorter than the lead leaves data bytes behind
  const size_t had = a.bytes.size();
  a.bytes.resize(h.data_bytes);
  m.read(a.bytes.data() + had, h.data_bytes - had);
  m.expect_end();
  return a;
}

}  // namespace mlsys
