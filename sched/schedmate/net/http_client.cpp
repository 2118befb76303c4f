#include "sched/schedmate/net/http_client.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <memory>

#include "core/util/error.hpp"
#include "core/util/number_parse.hpp"

namespace mlsys::schedmate {

namespace {

struct CurlGlobal {
  CurlGlobal() { curl_global_init(CURL_GLOBAL_DEFAULT); }
  ~CurlGlobal() { curl_global_cleanup(); }
};

struct Sink {
  std::string* out;
  size_t cap;
  bool too_large = false;
};

size_t on_data(char* data, size_t size, size_t n, void* user) {
  auto* s = static_cast<Sink*>(user);
  const size_t bytes = size * n;
  if (s->out->size() + bytes > s->cap) {
    s->too_large = true;
    return 0;  // aborts the transfer
  }
  s->out->append(data, bytes);
  return bytes;
}

}  // namespace

void check_http_url(const std::string& url) {
  std::string low = url;
  std::transform(low.begin(), low.end(), low.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const size_t scheme = low.rfind("https://", 0) == 0 ? 8 : low.rfind("http://", 0) == 0 ? 7 : 0;
  if (scheme == 0) throw ConfigError("schedmate.openai.url '" + url + "': expected http://host[:port]/path or https://...");
  const std::string rest = url.substr(scheme);
  const std::string authority = rest.substr(0, rest.find('/'));
  if (authority.empty() || authority.find_first_of(" \t\r\n@") != std::string::npos)
    throw ConfigError("schedmate.openai.url '" + url + "': no host (and no user:password@ in the URL)");
  const size_t colon = authority.rfind(':');
  if (colon != std::string::npos && authority.find(']') == std::string::npos) {
    const std::string port = authority.substr(colon + 1);
    constexpr IntRule kPort{"port", 1, 65535};
    const bool digits = !port.empty() && std::all_of(port.begin(), port.end(), [](unsigned char c) { return std::isdigit(c); });
    int64_t value = 0;
    if (!digits || parse_number(port, kPort, value) != NumberProblem::kOk)
      throw ConfigError("schedmate.openai.url '" + url + "': port must be 1..65535");
  }
}

HttpResponse http_post(const std::string& url, const std::string& body,
                       const std::vector<std::pair<std::string, std::string>>& headers, const HttpOptions& opt) {
  static CurlGlobal global;
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
  if (!curl) throw HttpError("libcurl: cannot create a request");
  curl_slist* list = curl_slist_append(nullptr, "Content-Type: application/json");
  for (const auto& [k, v] : headers) list = curl_slist_append(list, (k + ": " + v).c_str());
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> hold(list, curl_slist_free_all);
  HttpResponse r;
  Sink sink{&r.body, opt.max_reply_bytes};
  CURL* c = curl.get();
  const long timeout_ms = std::max(1L, static_cast<long>(opt.timeout_s * 1000.0));
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_POST, 1L);
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_data);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, timeout_ms);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM (threads)
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
  curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
  if (!opt.proxy.empty()) curl_easy_setopt(c, CURLOPT_PROXY, opt.proxy.c_str());
  if (!opt.ca_file.empty()) curl_easy_setopt(c, CURLOPT_CAINFO, opt.ca_file.c_str());
  char err[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, err);
  const CURLcode rc = curl_easy_perform(c);
  if (sink.too_large)
    throw HttpError("reply from " + url + " larger than " + std::to_string(opt.max_reply_bytes) + " bytes");
  if (rc != CURLE_OK)
    throw HttpError(std::string(rc == CURLE_OPERATION_TIMEDOUT ? "timeout: " : "") + (err[0] ? err : curl_easy_strerror(rc)) +
                    " (" + url + ")");
  long status = 0;
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
  r.status = static_cast<int>(status);
  return r;
}

}  // namespace mlsys::schedmate
