#pragma once
// Validates LLM replies against the JSON Schema subset SchedMate's requests use: type (a name or
// a list of names), properties, required, additionalProperties: false, enum, minimum, maximum, items.
#include <string>

#include "core/util/json.hpp"

namespace mlsys::schedmate {

// True when `value` matches; otherwise `why` names the first offending path.
bool validate_json(const Json& value, const Json& schema, std::string& why, const std::string& path = "$");

}  // namespace mlsys::schedmate
