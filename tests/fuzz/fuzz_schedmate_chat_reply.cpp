// Fuzz target: reading the answer out of an LLM server's reply body (OpenAI / llama.cpp / vLLM /
// Ollama shapes, text parts, a json fence, nesting caps). A body gives an answer or mlsys::Error;
// nothing else may escape, however deep or malformed the JSON.
#include <string_view>

#include "core/util/error.hpp"
#include "sched/schedmate/analyzer/chat_reply.hpp"
#include "tests/fuzz/fuzz_target.hpp"

MLSYS_FUZZ_TARGET(schedmate_chat_reply) {
  try {
    (void)mlsys::schedmate::chat_answer(std::string_view(reinterpret_cast<const char*>(data), size), 32);
  } catch (const mlsys::Error&) {
  }
  return 0;
}
