// SPDX-License-Identifier: Apache-2.0
#include "plan/json_read.hpp"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace kforecast::plan::json_read {

void malformed(std::string_view path, std::string_view expected) {
  throw JsonFieldError{fmt::format("{}: expected {}", path, expected)};
}

const Json& field(const Json& object, std::string_view key, std::string_view path) {
  const Json* element = json_document::find(object, key);
  if (element == nullptr) throw JsonFieldError{fmt::format("{}{}{}: missing", path, path.empty() ? "" : ".", key)};
  return *element;
}

namespace {
std::string child(std::string_view path, std::string_view key) {
  return path.empty() ? std::string(key) : fmt::format("{}.{}", path, key);
}
}  // namespace

std::string string_at(const Json& object, std::string_view key, std::string_view path) {
  return as_string(field(object, key, path), child(path, key));
}

double number_at(const Json& object, std::string_view key, std::string_view path) {
  const Json& element = field(object, key, path);
  if (!element.is_number()) malformed(child(path, key), "a number");
  const auto value = element.get<double>();
  if (!std::isfinite(value)) malformed(child(path, key), "a number");
  return value;
}

std::uint64_t unsigned_at(const Json& object, std::string_view key, std::string_view path) {
  const Json& element = field(object, key, path);
  if (!element.is_number_unsigned()) malformed(child(path, key), "a non-negative integer");
  return element.get<std::uint64_t>();
}

bool bool_at(const Json& object, std::string_view key, std::string_view path) {
  const Json& element = field(object, key, path);
  if (!element.is_boolean()) malformed(child(path, key), "true or false");
  return element.get<bool>();
}

const Json& object_at(const Json& object, std::string_view key, std::string_view path) {
  return as_object(field(object, key, path), child(path, key));
}

const Json& array_at(const Json& object, std::string_view key, std::string_view path) {
  const Json& element = field(object, key, path);
  if (!element.is_array()) malformed(child(path, key), "an array");
  return element;
}

const Json& as_object(const Json& element, std::string_view path) {
  if (!element.is_object()) malformed(path, "an object");
  return element;  // NOLINT(bugprone-return-const-ref-from-parameter): part of a document that outlives the call
}

std::string as_string(const Json& element, std::string_view path) {
  if (!element.is_string()) malformed(path, "a string");
  return element.get<std::string>();
}

std::string bounded_string(const Json& element, std::string_view path, std::size_t max_bytes, std::string_view what) {
  if (!element.is_string()) malformed(path, "a string");
  const auto& text = element.get_ref<const std::string&>();
  if (text.size() > max_bytes)
    throw JsonLimitError{
        fmt::format("{}: {} bytes, more than the {} {} may have", path, text.size(), max_bytes, what)};
  return text;
}

std::string bounded_string_at(const Json& object, std::string_view key, std::string_view path, std::size_t max_bytes,
                              std::string_view what) {
  return bounded_string(field(object, key, path), child(path, key), max_bytes, what);
}

const Json& bounded_array_at(const Json& object, std::string_view key, std::string_view path, std::size_t max_items,
                             std::string_view what) {
  const Json& array = array_at(object, key, path);
  if (array.size() > max_items)
    throw JsonLimitError{
        fmt::format("{}: {} entries, more than the {} {} may have", child(path, key), array.size(), max_items, what)};
  return array;
}

bool is_null(const Json& object, std::string_view key) {
  const Json* element = json_document::find(object, key);
  return element == nullptr || element->is_null();
}

Result<Json> tagged_document(std::string_view text, std::string_view name, const DocumentKind& kind) {
  const std::string how = fmt::format(fmt::runtime(kind.how_to_write), fmt::arg("name", name));
  auto document = json_document::parse(text);
  if (!document) return usage_error(fmt::format("{}: not {}: not JSON ({}); {}", name, kind.what, document.error(), how));
  if (!document->is_object()) return usage_error(fmt::format("{}: not {} (not a JSON object)", name, kind.what));
  const Json* tag = json_document::find(*document, kind.tag);
  if (tag == nullptr) return usage_error(fmt::format("{}: not {} (no \"{}\" key); {}", name, kind.what, kind.tag, how));
  if (!tag->is_number_unsigned() || tag->get<std::uint64_t>() != kind.version)
    return usage_error(fmt::format("{}: {} schema {} is not the one this kforecast reads ({}); {}", name, kind.schema,
                                   json_document::compact(*tag), kind.version, kind.on_mismatch));
  return std::move(*document);
}

}  // namespace kforecast::plan::json_read
