#pragma once
// For targets whose parser reads a file by path (trace readers, hints, IDX, .mlsg): the input
// bytes are written to one file of this process's own temporary folder, made once.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace mlsys::fuzz {

inline std::string input_file(const std::string& name, const uint8_t* data, size_t size) {
  static const std::string dir = [] {
    char tmpl[] = "/tmp/mlsys-fuzz-file-XXXXXX";
    if (mkdtemp(tmpl) == nullptr) std::abort();
    return std::string(tmpl);
  }();
  const std::string path = dir + "/" + name;
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();
  if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
  return path;
}

}  // namespace mlsys::fuzz
