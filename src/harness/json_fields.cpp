// SPDX-License-Identifier: Apache-2.0
#include "harness/json_fields.hpp"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace kforecast::harness::json_fields {

void malformed(std::string_view path, std::string_view problem) {
  throw OutputFieldError{fmt::format("{} {}", path, problem)};
}

const Json& field(const Json& object, std::string_view key, std::string_view path) {
  const Json* element = json_document::find(object, key);
  if (element == nullptr) malformed(path, "is missing");
  return *element;
}

const Json* optional_field(const Json& object, std::string_view key) { return json_document::find(object, key); }

const Json& as_object(const Json& element, std::string_view path) {
  if (!element.is_object()) malformed(path, fmt::format("is {}, expected an object", kind_name(element)));
  return element;  // NOLINT(bugprone-return-const-ref-from-parameter): part of a document that outlives the call
}

const Json& as_array(const Json& element, std::string_view path) {
  if (!element.is_array()) malformed(path, fmt::format("is {}, expected an array", kind_name(element)));
  return element;  // NOLINT(bugprone-return-const-ref-from-parameter): part of a document that outlives the call
}

std::string as_string(const Json& element, std::string_view path) {
  if (!element.is_string()) malformed(path, fmt::format("is {}, expected a string", kind_name(element)));
  return element.get<std::string>();
}

double as_number(const Json& element, std::string_view path) {
  if (!element.is_number()) malformed(path, fmt::format("is {}, expected a number", kind_name(element)));
  return element.get<double>();
}

bool as_bool(const Json& element, std::string_view path) {
  if (!element.is_boolean()) malformed(path, fmt::format("is {}, expected true or false", kind_name(element)));
  return element.get<bool>();
}

double as_time(double value, std::string_view path) {
  if (!std::isfinite(value) || value <= 0)
    malformed(path, fmt::format("is {:g}, expected a time above zero", value));
  return value;
}

}  // namespace kforecast::harness::json_fields
