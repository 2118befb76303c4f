#pragma once
// HTTP(S) POST for the `openai` analyzer, over libcurl (Debian libcurl4-openssl-dev): http:// and
// https:// only, TLS verified against the system's CA certificates (or a given file), proxies from
// the option or the environment (https_proxy, http_proxy, no_proxy), one deadline per request, a
// cap on the reply's size, no redirects.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/util/error.hpp"

namespace mlsys::schedmate {

struct HttpOptions {
  double timeout_s = 30;                      // the whole request: connect, send, receive
  std::string proxy;                          // "" = the environment's
  std::string ca_file;                        // "" = the system's CA certificates
  size_t max_reply_bytes = size_t{4} << 20;   // a longer reply is a transport error
};

struct HttpResponse {
  int status = 0;
  std::string body;
};

// Transport failure, timeout or oversized reply (an HTTP error status is returned in `status`).
class HttpError : public Error {
 public:
  using Error::Error;
};

// Throws ConfigError for anything but http(s)://host[:port][/path].
void check_http_url(const std::string& url);

HttpResponse http_post(const std::string& url, const std::string& body,
                       const std::vector<std::pair<std::string, std::string>>& headers, const HttpOptions& opt);

}  // namespace mlsys::schedmate
