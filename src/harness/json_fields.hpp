// SPDX-License-Identifier: Apache-2.0
#pragma once

// Typed reading of a benchmark program's JSON (untrusted): each accessor names the field's path
// when it is missing or of the wrong type, by throwing OutputFieldError, which the readers catch
// once and turn into an Error naming the file ("out.json: benchmarks[3].real_time is a string").

#include <simdjson.h>

#include <optional>
#include <string>
#include <string_view>

#include "base/error.hpp"

namespace kforecast::harness::json_fields {

struct OutputFieldError {
  std::string message;  // "benchmarks[3].real_time is a string, expected a number"
};

[[noreturn]] void malformed(std::string_view path, std::string_view problem);

std::string_view kind_name(simdjson::dom::element element);
simdjson::dom::element field(simdjson::dom::object object, std::string_view key, std::string_view path);
std::optional<simdjson::dom::element> optional_field(simdjson::dom::object object, std::string_view key);
simdjson::dom::object as_object(simdjson::dom::element element, std::string_view path);
simdjson::dom::array as_array(simdjson::dom::element element, std::string_view path);
std::string as_string(simdjson::dom::element element, std::string_view path);
double as_number(simdjson::dom::element element, std::string_view path);
// A time in seconds: a finite number above zero.
double as_time(double value, std::string_view path);

// Parses `text` and calls `read` on the root; a parse failure or an OutputFieldError becomes an
// Error naming `file`.
template <class Read>
auto read_json(std::string_view text, std::string_view file, Read read) -> decltype(read(simdjson::dom::element{})) {
  simdjson::dom::parser parser;
  const simdjson::padded_string padded(text);
  simdjson::dom::element root;
  if (auto error = parser.parse(padded).get(root); error != simdjson::SUCCESS)
    return usage_error(std::string(file) + ": not valid JSON (" + simdjson::error_message(error) +
                       "); was the benchmark program cut off or did it print something else?");
  try {
    return read(root);
  } catch (const OutputFieldError& problem) {
    return usage_error(std::string(file) + ": " + problem.message);
  }
}

}  // namespace kforecast::harness::json_fields
