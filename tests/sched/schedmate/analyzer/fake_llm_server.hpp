#pragma once
// A real HTTP server on 127.0.0.1 (ephemeral port) inside the test process that answers each
// request with the next scripted reply (a status, a body, an optional delay, or a dropped
// connection), or with what a responder computes from the request's body (a server that behaves
// like llama.cpp's, vLLM or Ollama). It records the requests it received.
#include <functional>
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
  // Answers every request (instead of the script) with what `f` returns for its body.
  void set_responder(std::function<ScriptedReply(const std::string& body)> f);
  std::string url(const std::string& path = "/v1/chat/completions") const;
  std::vector<std::string> requests() const;
  size_t request_count() const;

 private:
  void serve();
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  mutable std::mutex mu_;
  std::deque<ScriptedReply> script_;
  std::function<ScriptedReply(const std::string&)> responder_;
  std::vector<std::string> requests_;
  std::thread thread_;
};

// A chat-completions reply whose message content is `content` (a JSON text or anything else), in
// the shape OpenAI, llama.cpp's server and vLLM share.
std::string chat_reply(const std::string& content);
// Ollama's own /api/chat reply: {"model", "created_at", "message": {"role", "content"}, "done"}.
std::string ollama_reply(const std::string& content);

}  // namespace mlsys::schedmate::test
