// SPDX-License-Identifier: Apache-2.0
#pragma once

// Typed reading of a benchmark program's JSON (untrusted): each accessor names the field's path
// when it is missing or of the wrong type, by throwing OutputFieldError, which the readers catch
// once and turn into an Error naming the file ("out.json: benchmarks[3].real_time is a string").

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>  // read_json's body parses; only the harness's readers include this header

#include "base/error.hpp"
#include "base/json_document.hpp"

namespace kforecast::harness::json_fields {

struct OutputFieldError {
  std::string message;  // "benchmarks[3].real_time is a string, expected a number"
};

[[noreturn]] void malformed(std::string_view path, std::string_view problem);

using json_document::kind_name;
// The values returned are references into the document.
const Json& field(const Json& object, std::string_view key, std::string_view path);
const Json* optional_field(const Json& object, std::string_view key);  // nullptr where absent
const Json& as_object(const Json& element, std::string_view path);
const Json& as_array(const Json& element, std::string_view path);
std::string as_string(const Json& element, std::string_view path);
double as_number(const Json& element, std::string_view path);
bool as_bool(const Json& element, std::string_view path);
// A time in seconds: a finite number above zero.
double as_time(double value, std::string_view path);

// Parses `text` and calls `read` on the root; a parse failure or an OutputFieldError becomes an
// Error naming `file`.
template <class Read>
auto read_json(std::string_view text, std::string_view file, Read read) -> decltype(read(std::declval<const Json&>())) {
  const auto root = json_document::parse(text);
  if (!root)
    return usage_error(std::string(file) + ": not valid JSON (" + root.error() +
                       "); was the benchmark program cut off or did it print something else?");
  try {
    return read(*root);
  } catch (const OutputFieldError& problem) {
    return usage_error(std::string(file) + ": " + problem.message);
  }
}

}  // namespace kforecast::harness::json_fields
