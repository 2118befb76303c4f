#include "tests/sched/schedmate/analyzer/fake_llm_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <stdexcept>

#include "core/util/json.hpp"

namespace mlsys::schedmate::test {

std::string chat_reply(const std::string& content) {
  Json msg = Json::object();
  msg["role"] = "assistant";
  msg["content"] = content;
  Json choice = Json::object();
  choice["index"] = 0;
  choice["message"] = msg;
  choice["finish_reason"] = "stop";
  Json r = Json::object();
  r["id"] = "chatcmpl-test";
  r["object"] = "chat.completion";
  r["choices"] = Json(Json::Array{choice});
  return r.dump();
}

std::string ollama_reply(const std::string& content) {
  Json msg = Json::object();
  msg["role"] = "assistant";
  msg["content"] = content;
  Json r = Json::object();
  r["model"] = "llama3.1";
  r["created_at"] = "2024-05-01T10:00:00Z";
  r["message"] = msg;
  r["done_reason"] = "stop";
  r["done"] = true;
  return r.dump();
}

FakeLlmServer::FakeLlmServer() {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (listen_fd_ < 0) throw std::runtime_error("socket failed");
  int one = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(listen_fd_, 16) != 0)
    throw std::runtime_error("bind/listen failed");
  socklen_t len = sizeof addr;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  thread_ = std::thread([this] { serve(); });
}

FakeLlmServer::~FakeLlmServer() {
  stop_ = true;
  thread_.join();
  ::close(listen_fd_);
}

void FakeLlmServer::push(ScriptedReply r) {
  std::lock_guard<std::mutex> g(mu_);
  script_.push_back(std::move(r));
}

void FakeLlmServer::set_responder(std::function<ScriptedReply(const std::string&)> f) {
  std::lock_guard<std::mutex> g(mu_);
  responder_ = std::move(f);
}

std::string FakeLlmServer::url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(port_) + path; }

std::vector<std::string> FakeLlmServer::requests() const {
  std::lock_guard<std::mutex> g(mu_);
  return requests_;
}

size_t FakeLlmServer::request_count() const {
  std::lock_guard<std::mutex> g(mu_);
  return requests_.size();
}

void FakeLlmServer::serve() {
  while (!stop_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 20) <= 0) continue;
    int c = ::accept(listen_fd_, nullptr, nullptr);
    if (c < 0) continue;
    // Read headers and the Content-Length body.
    std::string req;
    char buf[4096];
    size_t need = std::string::npos;
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (std::chrono::steady_clock::now() < until) {
      pollfd q{c, POLLIN, 0};
      if (::poll(&q, 1, 50) <= 0) continue;
      ssize_t n = ::recv(c, buf, sizeof buf, 0);
      if (n <= 0) break;
      req.append(buf, static_cast<size_t>(n));
      size_t he = req.find("\r\n\r\n");
      if (he != std::string::npos && need == std::string::npos) {
        size_t cl = req.find("Content-Length: ");
        need = he + 4 + (cl == std::string::npos ? 0 : std::stoul(req.substr(cl + 16)));
      }
      if (need != std::string::npos && req.size() >= need) break;
    }
    ScriptedReply r;
    {
      std::lock_guard<std::mutex> g(mu_);
      size_t he = req.find("\r\n\r\n");
      requests_.push_back(he == std::string::npos ? req : req.substr(he + 4));
      if (responder_) {
        r = responder_(requests_.back());
      } else if (!script_.empty()) {
        r = script_.front();
        script_.pop_front();
      } else {
        r.status = 503;
        r.body = "{\"error\":\"no scripted reply\"}";
      }
    }
    // A delay ends early when the server stops (a server that never answers must not hold the test).
    for (int waited = 0; waited < r.delay_ms && !stop_; waited += 5) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (!r.drop) {
      std::string out = "HTTP/1.1 " + std::to_string(r.status) + " X\r\nContent-Type: application/json\r\nConnection: close\r\n";
      if (r.chunked) {
        out += "Transfer-Encoding: chunked\r\n\r\n";
        size_t half = r.body.size() / 2;
        char hex[32];
        std::snprintf(hex, sizeof hex, "%zx\r\n", half);
        out += hex + r.body.substr(0, half) + "\r\n";
        std::snprintf(hex, sizeof hex, "%zx\r\n", r.body.size() - half);
        out += hex + r.body.substr(half) + "\r\n0\r\n\r\n";
      } else {
        out += "Content-Length: " + std::to_string(r.body.size()) + "\r\n\r\n" + r.body;
      }
      ::send(c, out.data(), out.size(), MSG_NOSIGNAL);
    }
    ::close(c);
  }
}

}  // namespace mlsys::schedmate::test
