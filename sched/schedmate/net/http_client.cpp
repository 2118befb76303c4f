#include "sched/schedmate/net/http_client.hpp"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <fcntl.h>

#include <cerrno>
#include <chrono>
#include <cstring>

#include "core/util/strings.hpp"

namespace mlsys::schedmate {

namespace {

using Clock = std::chrono::steady_clock;

class Socket {
 public:
  explicit Socket(int fd) : fd_(fd) {}
  ~Socket() {
    if (fd_ >= 0) ::close(fd_);
  }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  int fd() const { return fd_; }

 private:
  int fd_;
};

int ms_left(Clock::time_point deadline) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return ms <= 0 ? 0 : static_cast<int>(std::min<long long>(ms, 1 << 30));
}

void wait_for(int fd, short events, Clock::time_point deadline, const std::string& what) {
  while (true) {
    int left = ms_left(deadline);
    if (left == 0) throw HttpError("HTTP timeout while " + what);
    pollfd p{fd, events, 0};
    int r = ::poll(&p, 1, left);
    if (r > 0) return;
    if (r == 0) throw HttpError("HTTP timeout while " + what);
    if (errno != EINTR) throw HttpError("HTTP poll failed while " + what + ": " + std::strerror(errno));
  }
}

std::string decode_chunked(const std::string& body) {
  std::string out;
  size_t pos = 0;
  while (pos < body.size()) {
    size_t eol = body.find("\r\n", pos);
    if (eol == std::string::npos) throw HttpError("HTTP chunked reply truncated");
    size_t len = std::strtoul(body.substr(pos, eol - pos).c_str(), nullptr, 16);
    pos = eol + 2;
    if (len == 0) break;
    if (pos + len > body.size()) throw HttpError("HTTP chunked reply truncated");
    out.append(body, pos, len);
    pos += len + 2;
  }
  return out;
}

}  // namespace

HttpUrl parse_http_url(const std::string& url) {
  const std::string scheme = "http://";
  if (url.rfind(scheme, 0) != 0)
    throw ConfigError("URL '" + url + "' is not supported: only http:// (no TLS) URLs work; use a local or proxied server");
  HttpUrl u;
  std::string rest = url.substr(scheme.size());
  size_t slash = rest.find('/');
  std::string hostport = rest.substr(0, slash);
  if (slash != std::string::npos) u.path = rest.substr(slash);
  size_t colon = hostport.rfind(':');
  if (colon != std::string::npos) {
    char* end = nullptr;
    long port = std::strtol(hostport.c_str() + colon + 1, &end, 10);
    if (!end || *end != '\0' || port <= 0 || port > 65535) throw ConfigError("URL '" + url + "': bad port");
    u.port = static_cast<int>(port);
    hostport = hostport.substr(0, colon);
  }
  if (hostport.empty()) throw ConfigError("URL '" + url + "': no host");
  u.host = hostport;
  return u;
}

HttpResponse http_post(const std::string& url, const std::string& body,
                       const std::vector<std::pair<std::string, std::string>>& headers, double timeout_s) {
  const HttpUrl u = parse_http_url(url);
  const auto deadline = Clock::now() + std::chrono::microseconds(static_cast<long long>(timeout_s * 1e6));
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  const std::string port = std::to_string(u.port);
  if (int rc = ::getaddrinfo(u.host.c_str(), port.c_str(), &hints, &res); rc != 0)
    throw HttpError("cannot resolve " + u.host + ": " + gai_strerror(rc));
  int fd = ::socket(res->ai_family, res->ai_socktype | SOCK_CLOEXEC, res->ai_protocol);
  if (fd < 0) {
    ::freeaddrinfo(res);
    throw HttpError(std::string("socket: ") + std::strerror(errno));
  }
  Socket sock(fd);
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL, 0) | O_NONBLOCK);
  int rc = ::connect(fd, res->ai_addr, res->ai_addrlen);
  ::freeaddrinfo(res);
  const std::string where = u.host + ":" + port;
  if (rc != 0) {
    if (errno != EINPROGRESS) throw HttpError("cannot connect to " + where + ": " + std::strerror(errno));
    wait_for(fd, POLLOUT, deadline, "connecting to " + where);
    int err = 0;
    socklen_t len = sizeof err;
    ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
    if (err != 0) throw HttpError("cannot connect to " + where + ": " + std::strerror(err));
  }
  std::string req = "POST " + u.path + " HTTP/1.1\r\nHost: " + u.host + ":" + port +
                    "\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: " +
                    std::to_string(body.size()) + "\r\n";
  for (const auto& [k, v] : headers) req += k + ": " + v + "\r\n";
  req += "\r\n" + body;
  size_t sent = 0;
  while (sent < req.size()) {
    wait_for(fd, POLLOUT, deadline, "sending to " + where);
    ssize_t n = ::send(fd, req.data() + sent, req.size() - sent, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      throw HttpError("send to " + where + " failed: " + std::strerror(errno));
    }
    sent += static_cast<size_t>(n);
  }
  std::string raw;
  char buf[8192];
  size_t header_end = std::string::npos;
  long long content_length = -1;
  while (true) {
    if (header_end != std::string::npos && content_length >= 0 &&
        raw.size() >= header_end + 4 + static_cast<size_t>(content_length))
      break;
    wait_for(fd, POLLIN, deadline, "waiting for " + where);
    ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n < 0) {
      if (errno == EAGAIN || errno == EINTR) continue;
      throw HttpError("receive from " + where + " failed: " + std::strerror(errno));
    }
    if (n == 0) break;  // server closed: the reply is complete (Connection: close)
    raw.append(buf, static_cast<size_t>(n));
    if (raw.size() > (64u << 20)) throw HttpError("HTTP reply from " + where + " is larger than 64 MiB");
    if (header_end == std::string::npos) {
      header_end = raw.find("\r\n\r\n");
      if (header_end != std::string::npos) {
        std::string head = to_lower(raw.substr(0, header_end));
        size_t p = head.find("\r\ncontent-length:");
        if (p != std::string::npos) content_length = std::strtoll(head.c_str() + p + 17, nullptr, 10);
      }
    }
  }
  if (header_end == std::string::npos) throw HttpError("malformed HTTP reply from " + where + " (no header end)");
  HttpResponse r;
  auto lines = split(raw.substr(0, header_end), '\n');
  if (lines.empty() || lines[0].rfind("HTTP/", 0) != 0) throw HttpError("malformed HTTP status line from " + where);
  size_t sp = lines[0].find(' ');
  r.status = sp == std::string::npos ? 0 : std::atoi(lines[0].c_str() + sp + 1);
  for (size_t i = 1; i < lines.size(); ++i) {
    size_t c = lines[i].find(':');
    if (c == std::string::npos) continue;
    r.headers[to_lower(trim(lines[i].substr(0, c)))] = std::string(trim(lines[i].substr(c + 1)));
  }
  r.body = raw.substr(header_end + 4);
  if (content_length >= 0 && r.body.size() > static_cast<size_t>(content_length)) r.body.resize(static_cast<size_t>(content_length));
  if (content_length >= 0 && r.body.size() < static_cast<size_t>(content_length))
    throw HttpError("HTTP reply from " + where + " truncated");
  auto te = r.headers.find("transfer-encoding");
  if (te != r.headers.end() && to_lower(te->second).find("chunked") != std::string::npos) r.body = decode_chunked(r.body);
  return r;
}

}  // namespace mlsys::schedmate
