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

#include "base/error.hpp"
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

// A document one kforecast job writes for another (a plan, a shard's results), as its errors name
// it. {name} in `how_to_write` is the file's name.
struct DocumentKind {
  std::string_view what;           // "a kforecast plan", "kforecast results"
  std::string_view tag;            // the top-level key that carries the schema: "kforecast_plan"
  std::string_view schema;         // "plan", "results"
  std::uint64_t version = 0;       // the schema this kforecast reads
  std::string_view how_to_write;   // "write one with `kforecast pr --plan {name}`"
  std::string_view on_mismatch;    // what to do when the schema differs
};

// `text` parsed and checked as a `kind` document: JSON, an object, tagged with the schema this
// kforecast reads. The document's root object, or a usage error naming `name` and the way to
// write one.
Result<Json> tagged_document(std::string_view text, std::string_view name, const DocumentKind& kind);

}  // namespace kforecast::plan::json_read
