#include "core/util/line_reader.hpp"

#include <zlib.h>

#include <cstring>

#include "core/util/error.hpp"

namespace mlsys {

LineReader::LineReader(const std::filesystem::path& path, size_t chunk_bytes)
    : path_(path.string()), chunk_(chunk_bytes) {
  if (std::filesystem::is_directory(path)) throw Error(path_ + ": is a folder, expected a file");
  gzFile f = gzopen(path_.c_str(), "rb");
  if (!f) throw Error(path_ + ": cannot open (" + std::strerror(errno) + ")");
  gzbuffer(f, 256 * 1024);
  gz_ = f;
  buf_.resize(chunk_);
}

LineReader::~LineReader() {
  if (gz_) gzclose(static_cast<gzFile>(gz_));
}

bool LineReader::fill() {
  if (eof_) return false;
  // Keep the partial line, move it to the front and grow the buffer only if a line is longer.
  size_t keep = end_ - begin_;
  if (keep > 0 && begin_ > 0) std::memmove(buf_.data(), buf_.data() + begin_, keep);
  begin_ = 0;
  end_ = keep;
  if (buf_.size() - end_ < chunk_ / 2) buf_.resize(buf_.size() * 2);
  int got = gzread(static_cast<gzFile>(gz_), buf_.data() + end_, static_cast<unsigned>(buf_.size() - end_));
  if (got < 0) {
    int errnum = 0;
    const char* msg = gzerror(static_cast<gzFile>(gz_), &errnum);
    throw Error(path_ + ": read failed: " + (msg ? msg : "unknown error"));
  }
  if (got == 0) eof_ = true;
  end_ += static_cast<size_t>(got);
  return got > 0;
}

bool LineReader::next(std::string_view& line) {
  for (;;) {
    const char* start = buf_.data() + begin_;
    const void* nl = std::memchr(start, '\n', end_ - begin_);
    if (nl) {
      size_t len = static_cast<size_t>(static_cast<const char*>(nl) - start);
      begin_ += len + 1;
      if (len > 0 && start[len - 1] == '\r') --len;
      line = std::string_view(start, len);
      ++line_no_;
      return true;
    }
    if (!fill()) {
      if (begin_ == end_) return false;
      // Last line without a trailing newline.
      const char* s = buf_.data() + begin_;
      size_t len = end_ - begin_;
      begin_ = end_;
      if (len > 0 && s[len - 1] == '\r') --len;
      line = std::string_view(s, len);
      ++line_no_;
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
    if (got <= 0) break;
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
