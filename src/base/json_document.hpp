// SPDX-License-Identifier: Apache-2.0
#pragma once

// Parsing JSON that kforecast did not write (plans and results from other CI jobs, captures,
// benchmark output, LLM answers, forge replies): nlohmann/json, with the nesting depth bounded
// first, because its DOM is copied, compared and printed recursively and a hostile file of a
// million '[' must be an error, not a stack overflow. Never throws.

#include <cstddef>
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace kforecast {

// ordered_json keeps an object's keys in document order, as written: a value quoted in a message
// reads as the file has it, and small objects (all kforecast reads) are searched faster than a map.
using Json = nlohmann::ordered_json;

namespace json_document {

// Deeper than any file kforecast reads (a plan nests about 8 levels).
inline constexpr std::size_t max_depth = 256;

// The document, or why `text` is not JSON: "syntax error at line 1, column 9: ..." or "nested
// deeper than 256 levels (byte 4101)". The reason names no file: the caller adds it.
std::expected<Json, std::string> parse(std::string_view text);

// The value as compact JSON text (a string's quotes included): what an error message quotes.
std::string compact(const Json& value);

// "an object", "an array", "a string", "a number", "a boolean", "null": for "X is Y, expected Z".
std::string_view kind_name(const Json& value);

// Typed reads that do not throw: nullptr / nullopt where `object` is no object, the key is absent
// or the value is of another type.
const Json* find(const Json& object, std::string_view key);
const Json* object_at(const Json& object, std::string_view key);
const Json* array_at(const Json& object, std::string_view key);
const std::string* string_at(const Json& object, std::string_view key);
std::optional<double> number_at(const Json& object, std::string_view key);         // any number
std::optional<std::int64_t> int64_at(const Json& object, std::string_view key);    // an integer that fits
std::optional<std::uint64_t> uint64_at(const Json& object, std::string_view key);  // a non-negative integer
std::optional<bool> bool_at(const Json& object, std::string_view key);
// The value at a JSON pointer of object keys and array indices ("/pull_request/head/sha"); nullptr
// where any step is missing.
const Json* at_pointer(const Json& root, std::string_view pointer);
// The same for a value itself.
std::optional<std::int64_t> as_int64(const Json& value);

}  // namespace json_document
}  // namespace kforecast
