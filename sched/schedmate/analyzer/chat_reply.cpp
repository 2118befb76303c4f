#include "sched/schedmate/analyzer/chat_reply.hpp"

#include <string>

#include "core/util/error.hpp"
#include "core/util/strings.hpp"
#include "sched/schedmate/io/bounded_input.hpp"

namespace mlsys::schedmate {

Json chat_answer(std::string_view body, int max_json_depth) {
  if (json_depth(body, max_json_depth) > max_json_depth) throw Error("reply nested too deep");
  Json reply = Json::parse(body);
  if (!reply.is_object()) throw Error("reply is not a JSON object");
  const Json* msg = nullptr;
  if (const Json* choices = reply.find("choices"); choices && choices->is_array() && !choices->as_array().empty()) {
    const Json& first = choices->as_array()[0];
    msg = first.is_object() ? first.find("message") : nullptr;
  } else {
    msg = reply.find("message");
  }
  const Json* content = msg && msg->is_object() ? msg->find("content") : nullptr;
  if (!content) throw Error("reply has no message content");
  std::string text;
  if (content->is_string()) {
    text = content->as_string();
  } else if (content->is_array()) {
    for (const auto& part : content->as_array())
      if (const Json* t = part.is_object() ? part.find("text") : nullptr; t && t->is_string()) text += t->as_string();
  } else {
    throw Error("message content is neither text nor text parts");
  }
  std::string_view v = trim(text);
  if (v.substr(0, 3) == "```") {
    const size_t nl = v.find('\n');
    const size_t close = v.rfind("```");
    if (nl != std::string_view::npos && close != std::string_view::npos && close > nl) v = trim(v.substr(nl + 1, close - nl - 1));
  }
  if (json_depth(v, max_json_depth) > max_json_depth) throw Error("answer nested too deep");
  return Json::parse(v);
}

}  // namespace mlsys::schedmate
