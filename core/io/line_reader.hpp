#pragma once
// The line reader of the project: streaming input through a fixed-size buffer, so memory does not
// grow with the file (multi-GB traces). Reads plain and gzip-compressed files alike (zlib passes
// plain files through). CSV files: core/io/csv.hpp reads them through this.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

namespace mlsys {

class LongLoop;

class LineReader {
 public:
  // Throws InputError naming the path when check_input_file (core/util/fs.hpp) refuses it (missing,
  // a folder, a device, FIFO or socket), mlsys::Error when it cannot be opened.
  explicit LineReader(const std::filesystem::path& path, size_t chunk_bytes = size_t{1} << 20);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  // Next line without its "\n" / "\r\n" (the first also without a UTF-8 byte-order mark); the
  // view stays valid until the next call. A gzip file that is cut short or corrupt is an
  // InputError naming the file and the lines read before it (the partial last line is never
  // returned). Every chunk read checks the stop flag and shows progress
  // (core/process/long_loop.hpp): a SIGINT or SIGTERM stops a multi-GB read with Interrupted
  // after at most one more chunk.
  bool next(std::string_view& line);
  // 1-based number of the line last returned.
  int64_t line_number() const { return line_no_; }
  const std::string& path() const { return path_; }

 private:
  bool fill();
  void* gz_ = nullptr;
  std::string path_;
  std::string buf_;
  size_t begin_ = 0, end_ = 0;
  size_t chunk_;
  bool eof_ = false;
  int64_t line_no_ = 0;
  std::unique_ptr<LongLoop> loop_;  // in MiB of the file (compressed size for gzip)
};

// Counts newline-terminated lines (plus a final unterminated one) with the same I/O path as
// LineReader: the raw baseline the trace-read benchmark compares against.
int64_t count_lines(const std::filesystem::path& path);

}  // namespace mlsys
