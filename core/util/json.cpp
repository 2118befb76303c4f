#include "core/util/json.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "core/util/error.hpp"

namespace mlsys {

bool Json::as_bool() const {
  if (!is_bool()) throw Error("JSON value is not a boolean");
  return std::get<bool>(v_);
}
double Json::as_number() const {
  if (const auto* i = std::get_if<int64_t>(&v_)) return static_cast<double>(*i);
  if (const auto* u = std::get_if<uint64_t>(&v_)) return static_cast<double>(*u);
  if (const auto* d = std::get_if<double>(&v_)) return *d;
  throw Error("JSON value is not a number");
}

int64_t Json::as_int() const {
  if (const auto* i = std::get_if<int64_t>(&v_)) return *i;
  if (std::holds_alternative<uint64_t>(v_)) throw Error("JSON integer does not fit in a signed 64-bit integer");
  double d = as_number();
  if (!(d >= -9.2233720368547758e18 && d < 9.2233720368547758e18)) throw Error("JSON number is out of integer range");
  return static_cast<int64_t>(d);
}

uint64_t Json::as_uint() const {
  if (const auto* u = std::get_if<uint64_t>(&v_)) return *u;
  if (const auto* i = std::get_if<int64_t>(&v_)) {
    if (*i < 0) throw Error("JSON integer is negative where an unsigned one is needed");
    return static_cast<uint64_t>(*i);
  }
  double d = as_number();
  if (!(d >= 0 && d < 1.8446744073709552e19)) throw Error("JSON number is out of unsigned integer range");
  return static_cast<uint64_t>(d);
}
const std::string& Json::as_string() const {
  if (!is_string()) throw Error("JSON value is not a string");
  return std::get<std::string>(v_);
}
const Json::Array& Json::as_array() const {
  if (!is_array()) throw Error("JSON value is not an array");
  return std::get<Array>(v_);
}
Json::Array& Json::as_array() {
  if (!is_array()) throw Error("JSON value is not an array");
  return std::get<Array>(v_);
}
const Json::Object& Json::as_object() const {
  if (!is_object()) throw Error("JSON value is not an object");
  return std::get<Object>(v_);
}

Json& Json::operator[](std::string_view key) {
  if (is_null()) v_ = Object{};
  if (!is_object()) throw Error("JSON value is not an object");
  auto& obj = std::get<Object>(v_);
  for (auto& kv : obj)
    if (kv.first == key) return kv.second;
  obj.emplace_back(std::string(key), Json());
  return obj.back().second;
}

const Json* Json::find(std::string_view key) const {
  if (!is_object()) return nullptr;
  for (auto& kv : std::get<Object>(v_))
    if (kv.first == key) return &kv.second;
  return nullptr;
}

void Json::push_back(Json v) {
  if (is_null()) v_ = Array{};
  as_array().push_back(std::move(v));
}

size_t Json::size() const {
  if (is_array()) return std::get<Array>(v_).size();
  if (is_object()) return std::get<Object>(v_).size();
  return 0;
}

namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 when the bytes there are not one.
size_t utf8_sequence(std::string_view s, size_t i) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = b(i);
  size_t n;
  unsigned cp;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07;
  else return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF))) return 0;  // overlong, too big
  if (cp >= 0xD800 && cp <= 0xDFFF) return 0;                                              // surrogates
  return n;
}

}  // namespace

std::string json_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  for (size_t i = 0; i < s.size();) {
    char c = s[i];
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else if (size_t n = utf8_sequence(s, i); n == 0) {
          out += "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER for one invalid byte
        } else {
          out.append(s.substr(i, n));
          i += n;
          continue;
        }
    }
    ++i;
  }
  return out;
}

std::string format_number(double x) {
  if (!std::isfinite(x)) return "null";
  if (x == std::floor(x) && std::fabs(x) < 1e15) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", x);
    return buf;
  }
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, res.ptr);
}

void Json::dump_to(std::string& out, int indent, int depth) const {
  auto newline = [&](int d) {
    if (indent < 0) return;
    out += '\n';
    out.append(static_cast<size_t>(indent * d), ' ');
  };
  if (is_null()) out += "null";
  else if (is_bool()) out += std::get<bool>(v_) ? "true" : "false";
  else if (const auto* i = std::get_if<int64_t>(&v_)) out += std::to_string(*i);
  else if (const auto* u = std::get_if<uint64_t>(&v_)) out += std::to_string(*u);
  else if (const auto* d = std::get_if<double>(&v_)) out += format_number(*d);
  else if (is_string()) {
    out += '"';
    out += json_escape(std::get<std::string>(v_));
    out += '"';
  } else if (is_array()) {
    const auto& a = std::get<Array>(v_);
    out += '[';
    for (size_t i = 0; i < a.size(); ++i) {
      if (i) out += indent < 0 ? "," : ",";
      newline(depth + 1);
      a[i].dump_to(out, indent, depth + 1);
    }
    if (!a.empty()) newline(depth);
    out += ']';
  } else {
    const auto& o = std::get<Object>(v_);
    out += '{';
    for (size_t i = 0; i < o.size(); ++i) {
      if (i) out += ",";
      newline(depth + 1);
      out += '"';
      out += json_escape(o[i].first);
      out += indent < 0 ? "\":" : "\": ";
      o[i].second.dump_to(out, indent, depth + 1);
    }
    if (!o.empty()) newline(depth);
    out += '}';
  }
}

std::string Json::dump(int indent) const {
  std::string out;
  dump_to(out, indent, 0);
  return out;
}

namespace {

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}
  Json parse_document() {
    Json v = parse_value(0);
    skip_ws();
    if (pos_ != s_.size()) fail("trailing characters after JSON value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < pos_ && i < s_.size(); ++i) {
      if (s_[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    throw Error("invalid JSON at line " + std::to_string(line) + ", column " + std::to_string(col) +
                ": " + what);
  }
  void skip_ws() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t'))
      ++pos_;
  }
  bool consume(std::string_view lit) {
    if (s_.substr(pos_, lit.size()) == lit) {
      pos_ += lit.size();
      return true;
    }
    return false;
  }
  Json parse_value(int depth) {
    if (depth > Json::kMaxDepth) fail("nesting deeper than " + std::to_string(Json::kMaxDepth) + " levels");
    skip_ws();
    if (pos_ >= s_.size()) fail("unexpected end of input");
    char c = s_[pos_];
    if (c == '{') return parse_object(depth);
    if (c == '[') return parse_array(depth);
    if (c == '"') return Json(parse_string());
    if (consume("true")) return Json(true);
    if (consume("false")) return Json(false);
    if (consume("null")) return Json();
    if (c == '-' || (c >= '0' && c <= '9')) return parse_number();
    fail(std::string("unexpected character '") + c + "'");
  }
  Json parse_number() {
    size_t start = pos_;
    if (s_[pos_] == '-') ++pos_;
    while (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '.' ||
                                s_[pos_] == 'e' || s_[pos_] == 'E' || s_[pos_] == '+' || s_[pos_] == '-'))
      ++pos_;
    std::string_view text = s_.substr(start, pos_ - start);
    // Integer literals stay exact (int64, or uint64 when positive and larger); "-0" stays a double.
    if (text.find_first_of(".eE") == std::string_view::npos && text != "-0") {
      int64_t i = 0;
      auto ri = std::from_chars(text.data(), text.data() + text.size(), i);
      if (ri.ec == std::errc() && ri.ptr == text.data() + text.size()) return Json(i);
      uint64_t u = 0;
      auto ru = std::from_chars(text.data(), text.data() + text.size(), u);
      if (ru.ec == std::errc() && ru.ptr == text.data() + text.size()) return Json(static_cast<unsigned long long>(u));
    }
    double x = 0;
    auto res = std::from_chars(text.data(), text.data() + text.size(), x);
    if (res.ec != std::errc() || res.ptr != text.data() + text.size()) {
      pos_ = start;
      fail("bad number");
    }
    return Json(x);
  }
  static void append_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) out += static_cast<char>(cp);
    else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  unsigned parse_hex4() {
    if (pos_ + 4 > s_.size()) fail("bad \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      char h = s_[pos_++];
      v <<= 4;
      if (h >= '0' && h <= '9') v |= static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f') v |= static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') v |= static_cast<unsigned>(h - 'A' + 10);
      else fail("bad \\u escape");
    }
    return v;
  }
  std::string parse_string() {
    ++pos_;  // opening quote
    std::string out;
    while (true) {
      if (pos_ >= s_.size()) fail("unterminated string");
      char c = s_[pos_++];
      if (c == '"') break;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) fail("unterminated escape");
      char e = s_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = parse_hex4();
          if (cp >= 0xD800 && cp < 0xDC00 && s_.substr(pos_, 2) == "\\u") {
            size_t save = pos_;
            pos_ += 2;
            unsigned lo = parse_hex4();
            if (lo >= 0xDC00 && lo < 0xE000) cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            else pos_ = save;  // not a pair: the high half alone is replaced below
          }
          if (cp >= 0xD800 && cp < 0xE000) cp = 0xFFFD;  // a lone surrogate is not a character
          append_utf8(out, cp);
          break;
        }
        default: fail("bad escape");
      }
    }
    return out;
  }
  Json parse_array(int depth) {
    ++pos_;
    Json::Array a;
    skip_ws();
    if (consume("]")) return Json(std::move(a));
    while (true) {
      a.push_back(parse_value(depth + 1));
      skip_ws();
      if (consume("]")) break;
      if (!consume(",")) fail("expected ',' or ']'");
    }
    return Json(std::move(a));
  }
  Json parse_object(int depth) {
    ++pos_;
    Json::Object o;
    skip_ws();
    if (consume("}")) return Json(std::move(o));
    while (true) {
      skip_ws();
      if (pos_ >= s_.size() || s_[pos_] != '"') fail("expected a string key");
      std::string key = parse_string();
      skip_ws();
      if (!consume(":")) fail("expected ':'");
      o.emplace_back(std::move(key), parse_value(depth + 1));
      skip_ws();
      if (consume("}")) break;
      if (!consume(",")) fail("expected ',' or '}'");
    }
    return Json(std::move(o));
  }
  std::string_view s_;
  size_t pos_ = 0;
};

}  // namespace

Json Json::parse(std::string_view text) { return Parser(text).parse_document(); }

}  // namespace mlsys
