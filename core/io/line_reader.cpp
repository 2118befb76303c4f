#include "core/io/line_reader.hpp"

#include <zlib.h>

#include <cstring>

#include "core/process/long_loop.hpp"
#include "core/util/error.hpp"
#include "core/util/fs.hpp"

namespace mlsys {

LineReader::LineReader(const std::filesystem::path& path, size_t chunk_bytes)
    : path_(path.string()), chunk_(chunk_bytes) {
  // The one input check (core/util/fs.hpp): regular files only, as every reader built on this one
  // reads files by nature.
  const uint64_t size = check_input_file(path);
  gzFile f = gzopen(path_.c_str(), "rb");
  if (!f) throw Error(path_ + ": cannot open (" + std::strerror(errno) + ")");
  gzbuffer(f, 256 * 1024);
  gz_ = f;
  buf_.resize(chunk_);
  loop_ = std::make_unique<LongLoop>("read " + path.filename().string(), size >> 20, "MiB");
}

LineReader::~LineReader() {
  if (gz_) gzclose(static_cast<gzFile>(gz_));
}

bool LineReader::fill() {
  if (eof_) return false;
  // One clock read per chunk (1 MiB by default): negligible beside reading and parsing it.
  loop_->beat(static_cast<uint64_t>(gzoffset(static_cast<gzFile>(gz_))) >> 20);
  // Keep the partial line, move it to the front and grow the buffer only if a line is longer.
  size_t keep = end_ - begin_;
  if (keep > 0 && begin_ > 0) std::memmove(buf_.data(), buf_.data() + begin_, keep);
  begin_ = 0;
  end_ = keep;
  if (buf_.size() - end_ < chunk_ / 2) buf_.resize(buf_.size() * 2);
  int got = gzread(static_cast<gzFile>(gz_), buf_.data() + end_, static_cast<unsigned>(buf_.size() - end_));
  int errnum = Z_OK;
  const char* msg = got <= 0 ? gzerror(static_cast<gzFile>(gz_), &errnum) : nullptr;
  const std::string read_so_far = "after " + std::to_string(line_no_) + " complete lines";
  if (got < 0 && errnum == Z_ERRNO)
    throw Error(path_ + ": read failed (" + std::strerror(errno) + ") " + read_so_far);
  if (got < 0)
    throw InputError(path_ + ": corrupt gzip data (" + (msg ? msg : "unknown zlib error") + ") " + read_so_far +
                     "; the file is damaged: obtain or compress it again");
  // zlib reports a stream that ends early (a cut download or copy) only through gzerror: the
  // lines read so far are all there is, and the last of them may be cut inside a field.
  if (got == 0 && errnum == Z_BUF_ERROR)
    throw InputError(path_ + ": truncated gzip file: the compressed data ends early, " + read_so_far +
                     "; the file is incomplete: obtain or compress it again");
  if (got == 0) {
    eof_ = true;
    loop_->finish(static_cast<uint64_t>(gzoffset(static_cast<gzFile>(gz_))) >> 20);
  }
  end_ += static_cast<size_t>(got);
  return got > 0;
}

namespace {

// A line without its "\r"; the first line also without a UTF-8 byte-order mark, which editors
// on Windows write and which would otherwise become part of the first header name.
std::string_view trimmed_line(const char* start, size_t len, int64_t line_no) {
  if (len > 0 && start[len - 1] == '\r') --len;
  std::string_view line(start, len);
  if (line_no == 1 && line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);
  return line;
}

}  // namespace

bool LineReader::next(std::string_view& line) {
  for (;;) {
    const char* start = buf_.data() + begin_;
    const void* nl = std::memchr(start, '\n', end_ - begin_);
    if (nl) {
      const auto len = static_cast<size_t>(static_cast<const char*>(nl) - start);
      begin_ += len + 1;
      line = trimmed_line(start, len, ++line_no_);
      return true;
    }
    if (!fill()) {
      if (begin_ == end_) return false;
      // Last line without a trailing newline.
      const char* s = buf_.data() + begin_;
      const size_t len = end_ - begin_;
      begin_ = end_;
      line = trimmed_line(s, len, ++line_no_);
      return true;
    }
  }
}

int64_t count_lines(const std::filesystem::path& path) {
  gzFile f = gzopen(path.string().c_str(), "rb");
  if (!f) throw Error(path.string() + ": cannot open (" + std::strerror(errno) + ")");
  gzbuffer(f, 256 * 1024);
  std::string buf(size_t{1} << 20, '\0');
  int64_t n = 0;
  char last = '\n';
  for (;;) {
    int got = gzread(f, buf.data(), static_cast<unsigned>(buf.size()));
    if (got < 0) {
      gzclose(f);
      throw InputError(path.string() + ": corrupt gzip data");
    }
    if (got == 0) break;
    const char* p = buf.data();
    const char* end = p + got;
    while ((p = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p))))) {
      ++n;
      ++p;
    }
    last = buf[static_cast<size_t>(got) - 1];
  }
  gzclose(f);
  return n + (last != '\n' ? 1 : 0);
}

}  // namespace mlsys
