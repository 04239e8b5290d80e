// SPDX-License-Identifier: Apache-2.0
#include "harness/json_fields.hpp"

#include <cmath>

#include <fmt/format.h>

namespace kforecast::harness::json_fields {

void malformed(std::string_view path, std::string_view problem) {
  throw OutputFieldError{fmt::format("{} {}", path, problem)};
}

std::string_view kind_name(simdjson::dom::element element) {
  switch (element.type()) {
    case simdjson::dom::element_type::ARRAY:
      return "an array";
    case simdjson::dom::element_type::OBJECT:
      return "an object";
    case simdjson::dom::element_type::INT64:
    case simdjson::dom::element_type::UINT64:
    case simdjson::dom::element_type::DOUBLE:
      return "a number";
    case simdjson::dom::element_type::STRING:
      return "a string";
    case simdjson::dom::element_type::BOOL:
      return "a boolean";
    case simdjson::dom::element_type::NULL_VALUE:
      return "null";
  }
  return "a value";
}

simdjson::dom::element field(simdjson::dom::object object, std::string_view key, std::string_view path) {
  simdjson::dom::element element;
  if (object.at_key(key).get(element) != simdjson::SUCCESS) malformed(path, "is missing");
  return element;
}

std::optional<simdjson::dom::element> optional_field(simdjson::dom::object object, std::string_view key) {
  simdjson::dom::element element;
  if (object.at_key(key).get(element) != simdjson::SUCCESS) return std::nullopt;
  return element;
}

simdjson::dom::object as_object(simdjson::dom::element element, std::string_view path) {
  simdjson::dom::object object;
  if (element.get_object().get(object) != simdjson::SUCCESS)
    malformed(path, fmt::format("is {}, expected an object", kind_name(element)));
  return object;
}

simdjson::dom::array as_array(simdjson::dom::element element, std::string_view path) {
  simdjson::dom::array array;
  if (element.get_array().get(array) != simdjson::SUCCESS)
    malformed(path, fmt::format("is {}, expected an array", kind_name(element)));
  return array;
}

std::string as_string(simdjson::dom::element element, std::string_view path) {
  std::string_view text;
  if (element.get_string().get(text) != simdjson::SUCCESS)
    malformed(path, fmt::format("is {}, expected a string", kind_name(element)));
  return std::string(text);
}

double as_number(simdjson::dom::element element, std::string_view path) {
  double value = 0;
  if (element.get_double().get(value) == simdjson::SUCCESS) return value;
  std::int64_t whole = 0;
  if (element.get_int64().get(whole) == simdjson::SUCCESS) return static_cast<double>(whole);
  std::uint64_t large = 0;
  if (element.get_uint64().get(large) == simdjson::SUCCESS) return static_cast<double>(large);
  malformed(path, fmt::format("is {}, expected a number", kind_name(element)));
}

double as_time(double value, std::string_view path) {
  if (!std::isfinite(value) || value <= 0)
    malformed(path, fmt::format("is {:g}, expected a time above zero", value));
  return value;
}

}  // namespace kforecast::harness::json_fields
