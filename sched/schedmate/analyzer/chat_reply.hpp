#pragma once
// The answer inside a chat-completions reply body, apart from the HTTP exchange so that it can be
// tested and fuzzed on its own (tests/fuzz/fuzz_schedmate_chat_reply.cpp).
#include <string_view>

#include "core/util/json.hpp"

namespace mlsys::schedmate {

// OpenAI / llama.cpp server / vLLM (choices[0].message.content: a string or a list of text parts)
// or Ollama's own API (message.content); a ```json fence is dropped; the answer is parsed as JSON.
// Throws mlsys::Error on anything else, including a reply or answer nested deeper than
// `max_json_depth`.
Json chat_answer(std::string_view body, int max_json_depth);

}  // namespace mlsys::schedmate
