// SPDX-License-Identifier: Apache-2.0
#pragma once

// Typed access to a simdjson DOM for the plan and results readers (files one CI job hands to
// another, so untrusted): each accessor names the field's path when it is missing or of the wrong
// type. A malformed field throws JsonFieldError, caught once by the reader and turned into an
// Error naming the file, so each reader reads as a list of fields rather than of checks.

#include <simdjson.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace kforecast::gate::json_read {

struct JsonFieldError {
  std::string message;  // "kernels[2].name: expected a string"
};

[[noreturn]] void malformed(std::string_view path, std::string_view expected);

simdjson::dom::element field(simdjson::dom::object object, std::string_view key, std::string_view path);
std::string string_at(simdjson::dom::object object, std::string_view key, std::string_view path);
double number_at(simdjson::dom::object object, std::string_view key, std::string_view path);
std::uint64_t unsigned_at(simdjson::dom::object object, std::string_view key, std::string_view path);
bool bool_at(simdjson::dom::object object, std::string_view key, std::string_view path);
simdjson::dom::object object_at(simdjson::dom::object object, std::string_view key, std::string_view path);
simdjson::dom::array array_at(simdjson::dom::object object, std::string_view key, std::string_view path);
simdjson::dom::object as_object(simdjson::dom::element element, std::string_view path);
std::string as_string(simdjson::dom::element element, std::string_view path);
bool is_null(simdjson::dom::object object, std::string_view key);

}  // namespace kforecast::gate::json_read
