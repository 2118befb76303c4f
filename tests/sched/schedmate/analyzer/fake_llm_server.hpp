#pragma once
// A real HTTP server on 127.0.0.1 (ephemeral port) inside the test process that answers each
// request with the next scripted reply: a status, a body, an optional delay, or a dropped
// connection. It records the requests it received.
#include <atomic>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace mlsys::schedmate::test {

struct ScriptedReply {
  int status = 200;
  std::string body;
  int delay_ms = 0;
  bool chunked = false;
  bool drop = false;  // close without answering
};

class FakeLlmServer {
 public:
  FakeLlmServer();
  ~FakeLlmServer();
  void push(ScriptedReply r);
  std::string url() const;
  std::vector<std::string> requests() const;
  size_t request_count() const;

 private:
  void serve();
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  mutable std::mutex mu_;
  std::deque<ScriptedReply> script_;
  std::vector<std::string> requests_;
  std::thread thread_;
};

// A chat-completions reply whose message content is `content` (a JSON text or anything else).
std::string chat_reply(const std::string& content);

}  // namespace mlsys::schedmate::test
