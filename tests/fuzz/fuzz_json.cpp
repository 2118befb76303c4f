// libFuzzer target for the JSON reader and writer (core/util/json): arbitrary bytes must either
// parse or raise mlsys::Error; whatever parses must dump to valid UTF-8 that parses back to the
// same dump (integers exact), and json_escape of any bytes must be valid UTF-8 with no raw
// control characters.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/util/error.hpp"
#include "core/util/json.hpp"

namespace {

bool valid_utf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80 ? 1 : (c >= 0xC2 && c <= 0xDF) ? 2 : (c >= 0xE0 && c <= 0xEF) ? 3 : (c >= 0xF0 && c <= 0xF4) ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    unsigned cp = n == 1 ? c : c & (0xFF >> (n + 1));
    for (size_t k = 1; k < n; ++k) {
      auto b = static_cast<unsigned char>(s[i + k]);
      if ((b & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (b & 0x3F);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    i += n;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string escaped = mlsys::json_escape(text);
  if (!valid_utf8(escaped)) std::abort();
  for (char c : escaped)
    if (static_cast<unsigned char>(c) < 0x20) std::abort();
  try {
    mlsys::Json j = mlsys::Json::parse(text);
    for (int indent : {-1, 2}) {
      std::string out = j.dump(indent);
      if (!valid_utf8(out)) std::abort();
      if (mlsys::Json::parse(out).dump(indent) != out) std::abort();
    }
  } catch (const mlsys::Error&) {
  }
  return 0;
}
