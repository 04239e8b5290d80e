// SPDX-License-Identifier: Apache-2.0
#pragma once

// Typed access to a parsed JSON document (base/json_document.hpp) for the plan and results
// readers (files one CI job hands to another, so untrusted): each accessor names the field's path
// when it is missing or of the wrong type. A malformed field throws JsonFieldError, caught once by
// the reader and turned into an Error naming the file, so each reader reads as a list of fields
// rather than of checks. The values returned are references into the document.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/json_document.hpp"

namespace kforecast::plan::json_read {

struct JsonFieldError {
  std::string message;  // "kernels[2].name: expected a string"
};

// A field past a bound the reader sets (a file written where a pull request may have had a hand in
// it must not cost the job that reads it unbounded memory or output).
struct JsonLimitError {
  std::string message;  // "report.kernels: 200000 entries, more than the 5000 allowed"
};

[[noreturn]] void malformed(std::string_view path, std::string_view expected);

const Json& field(const Json& object, std::string_view key, std::string_view path);
std::string string_at(const Json& object, std::string_view key, std::string_view path);
double number_at(const Json& object, std::string_view key, std::string_view path);
std::uint64_t unsigned_at(const Json& object, std::string_view key, std::string_view path);
bool bool_at(const Json& object, std::string_view key, std::string_view path);
const Json& object_at(const Json& object, std::string_view key, std::string_view path);
const Json& array_at(const Json& object, std::string_view key, std::string_view path);
const Json& as_object(const Json& element, std::string_view path);
std::string as_string(const Json& element, std::string_view path);
bool is_null(const Json& object, std::string_view key);

// string_at and array_at with a bound: at most `max_bytes` bytes, at most `max_items` entries;
// `what` names the field's kind in the error ("a note").
std::string bounded_string_at(const Json& object, std::string_view key, std::string_view path, std::size_t max_bytes,
                              std::string_view what);
std::string bounded_string(const Json& element, std::string_view path, std::size_t max_bytes, std::string_view what);
const Json& bounded_array_at(const Json& object, std::string_view key, std::string_view path, std::size_t max_items,
                             std::string_view what);

}  // namespace kforecast::plan::json_read
