// SPDX-License-Identifier: Apache-2.0
#include "gate/json_read.hpp"

#include <cmath>

#include <fmt/format.h>

namespace kforecast::gate::json_read {

void malformed(std::string_view path, std::string_view expected) {
  throw JsonFieldError{fmt::format("{}: expected {}", path, expected)};
}

simdjson::dom::element field(simdjson::dom::object object, std::string_view key, std::string_view path) {
  simdjson::dom::element element;
  if (object[key].get(element) != simdjson::SUCCESS)
    throw JsonFieldError{fmt::format("{}{}{}: missing", path, path.empty() ? "" : ".", key)};
  return element;
}

namespace {
std::string child(std::string_view path, std::string_view key) {
  return path.empty() ? std::string(key) : fmt::format("{}.{}", path, key);
}
}  // namespace

std::string string_at(simdjson::dom::object object, std::string_view key, std::string_view path) {
  return as_string(field(object, key, path), child(path, key));
}

double number_at(simdjson::dom::object object, std::string_view key, std::string_view path) {
  double value = 0;
  if (field(object, key, path).get_double().get(value) != simdjson::SUCCESS || !std::isfinite(value))
    malformed(child(path, key), "a number");
  return value;
}

std::uint64_t unsigned_at(simdjson::dom::object object, std::string_view key, std::string_view path) {
  std::uint64_t value = 0;
  if (field(object, key, path).get_uint64().get(value) != simdjson::SUCCESS)
    malformed(child(path, key), "a non-negative integer");
  return value;
}

bool bool_at(simdjson::dom::object object, std::string_view key, std::string_view path) {
  bool value = false;
  if (field(object, key, path).get_bool().get(value) != simdjson::SUCCESS) malformed(child(path, key), "true or false");
  return value;
}

simdjson::dom::object object_at(simdjson::dom::object object, std::string_view key, std::string_view path) {
  return as_object(field(object, key, path), child(path, key));
}

simdjson::dom::array array_at(simdjson::dom::object object, std::string_view key, std::string_view path) {
  simdjson::dom::array value;
  if (field(object, key, path).get_array().get(value) != simdjson::SUCCESS) malformed(child(path, key), "an array");
  return value;
}

simdjson::dom::object as_object(simdjson::dom::element element, std::string_view path) {
  simdjson::dom::object value;
  if (element.get_object().get(value) != simdjson::SUCCESS) malformed(path, "an object");
  return value;
}

std::string as_string(simdjson::dom::element element, std::string_view path) {
  std::string_view value;
  if (element.get_string().get(value) != simdjson::SUCCESS) malformed(path, "a string");
  return std::string(value);
}

bool is_null(simdjson::dom::object object, std::string_view key) {
  simdjson::dom::element element;
  return object[key].get(element) != simdjson::SUCCESS || element.is_null();
}

}  // namespace kforecast::gate::json_read
