#include "sched/schedmate/analyzer/json_schema.hpp"

#include <cmath>

namespace mlsys::schedmate {

namespace {
bool has_type(const Json& v, const std::string& t) {
  if (t == "object") return v.is_object();
  if (t == "array") return v.is_array();
  if (t == "string") return v.is_string();
  if (t == "number") return v.is_number();
  if (t == "integer") return v.is_number() && v.as_number() == std::floor(v.as_number());
  if (t == "boolean") return v.is_bool();
  if (t == "null") return v.is_null();
  return false;
}
}  // namespace

bool validate_json(const Json& v, const Json& s, std::string& why, const std::string& path) {
  if (const Json* t = s.find("type")) {
    bool ok = false;
    if (t->is_string()) ok = has_type(v, t->as_string());
    else if (t->is_array())
      for (const auto& x : t->as_array()) ok = ok || (x.is_string() && has_type(v, x.as_string()));
    if (!ok) {
      why = path + ": expected type " + t->dump();
      return false;
    }
  }
  if (const Json* e = s.find("enum")) {
    bool ok = false;
    for (const auto& x : e->as_array()) ok = ok || x.dump() == v.dump();
    if (!ok) {
      why = path + ": value " + v.dump() + " not in " + e->dump();
      return false;
    }
  }
  if (v.is_number()) {
    if (const Json* m = s.find("minimum"); m && v.as_number() < m->as_number()) {
      why = path + ": below minimum " + m->dump();
      return false;
    }
    if (const Json* m = s.find("maximum"); m && v.as_number() > m->as_number()) {
      why = path + ": above maximum " + m->dump();
      return false;
    }
  }
  if (v.is_object()) {
    const Json* props = s.find("properties");
    if (const Json* req = s.find("required"))
      for (const auto& r : req->as_array())
        if (!v.contains(r.as_string())) {
          why = path + ": missing required '" + r.as_string() + "'";
          return false;
        }
    const Json* extra = s.find("additionalProperties");
    for (const auto& [k, x] : v.as_object()) {
      const Json* ps = props ? props->find(k) : nullptr;
      if (ps) {
        if (!validate_json(x, *ps, why, path + "." + k)) return false;
      } else if (extra && extra->is_bool() && !extra->as_bool()) {
        why = path + ": unexpected property '" + k + "'";
        return false;
      }
    }
  }
  if (v.is_array())
    if (const Json* items = s.find("items"))
      for (size_t i = 0; i < v.as_array().size(); ++i)
        if (!validate_json(v.as_array()[i], *items, why, path + "[" + std::to_string(i) + "]")) return false;
  return true;
}

}  // namespace mlsys::schedmate
