#pragma once
// A minimal HTTP/1.1 client over POSIX sockets, enough for an OpenAI-compatible server on the
// local network: http:// only (no TLS), one request per connection, Content-Length or chunked
// replies, and one deadline covering connect, send and receive.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/util/error.hpp"

namespace mlsys::schedmate {

struct HttpUrl {
  std::string host;
  int port = 80;
  std::string path = "/";
};
// Throws ConfigError for anything but http://host[:port][/path].
HttpUrl parse_http_url(const std::string& url);

struct HttpResponse {
  int status = 0;
  std::map<std::string, std::string> headers;  // lower-case names
  std::string body;
};

// Transport failure or timeout (not an HTTP error status, which is returned in `status`).
class HttpError : public Error {
 public:
  using Error::Error;
};

HttpResponse http_post(const std::string& url, const std::string& body,
                       const std::vector<std::pair<std::string, std::string>>& headers, double timeout_s);

}  // namespace mlsys::schedmate
