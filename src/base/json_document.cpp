// SPDX-License-Identifier: Apache-2.0
#include "base/json_document.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace kforecast::json_document {
namespace {

// The depth of the deepest array or object, counted outside strings; where it first passes
// max_depth, the byte offset (so the parser never sees a document deeper than that).
std::expected<void, std::size_t> depth_within_bound(std::string_view text) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;  // the escaped character cannot end the string
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return std::unexpected(i);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return {};
}

// nlohmann's message without its "[json.exception.parse_error.101] " prefix, and at most a line.
std::string reason(const Json::exception& error) {
  std::string_view text = error.what();
  if (const auto close = text.find("] "); text.starts_with("[json.exception.") && close != std::string_view::npos)
    text.remove_prefix(close + 2);
  constexpr std::size_t longest = 200;  // "last read: '...'" quotes the input, which may be long
  if (text.size() > longest) return std::string(text.substr(0, longest)) + "...";
  return std::string(text);
}

}  // namespace

std::expected<Json, std::string> parse(std::string_view text) {
  if (auto deep = depth_within_bound(text); !deep)
    return std::unexpected("nested deeper than " + std::to_string(max_depth) + " levels (byte " +
                           std::to_string(deep.error()) + ")");
  try {
    return Json::parse(text);
  } catch (const Json::exception& error) {
    return std::unexpected(reason(error));
  }
}

std::string compact(const Json& value) {
  // Parsed strings are valid UTF-8; `replace` keeps dump from throwing on any other.
  return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string_view kind_name(const Json& value) {
  switch (value.type()) {
    case Json::value_t::array:
      return "an array";
    case Json::value_t::object:
      return "an object";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      return "a number";
    case Json::value_t::string:
      return "a string";
    case Json::value_t::boolean:
      return "a boolean";
    case Json::value_t::null:
      return "null";
    case Json::value_t::binary:
    case Json::value_t::discarded:
      break;
  }
  return "a value";
}

const Json* find(const Json& object, std::string_view key) {
  if (!object.is_object()) return nullptr;
  const auto found = object.find(key);
  return found == object.end() ? nullptr : &*found;
}

const Json* object_at(const Json& object, std::string_view key) {
  const Json* value = find(object, key);
  return value != nullptr && value->is_object() ? value : nullptr;
}

const Json* array_at(const Json& object, std::string_view key) {
  const Json* value = find(object, key);
  return value != nullptr && value->is_array() ? value : nullptr;
}

const std::string* string_at(const Json& object, std::string_view key) {
  const Json* value = find(object, key);
  return value != nullptr && value->is_string() ? &value->get_ref<const std::string&>() : nullptr;
}

const Json* at_pointer(const Json& root, std::string_view pointer) {
  const Json* at = &root;
  while (!pointer.empty()) {
    if (pointer.front() != '/') return nullptr;
    pointer.remove_prefix(1);
    const std::size_t end = std::min(pointer.find('/'), pointer.size());
    const std::string_view step = pointer.substr(0, end);
    pointer.remove_prefix(end);
    if (at->is_array()) {
      std::size_t index = 0;
      if (step.empty() || step.size() > 9 || step.find_first_not_of("0123456789") != std::string_view::npos)
        return nullptr;
      for (const char digit : step) index = index * 10 + static_cast<std::size_t>(digit - '0');
      if (index >= at->size()) return nullptr;
      at = &(*at)[index];
    } else {
      at = find(*at, step);
      if (at == nullptr) return nullptr;
    }
  }
  return at;
}

std::optional<double> number_at(const Json& object, std::string_view key) {
  const Json* value = find(object, key);
  if (value == nullptr || !value->is_number()) return std::nullopt;
  return value->get<double>();
}

std::optional<std::int64_t> as_int64(const Json& value) {
  if (value.is_number_unsigned()) {
    const auto number = value.get<std::uint64_t>();
    if (number > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<std::int64_t>(number);
  }
  if (value.is_number_integer()) return value.get<std::int64_t>();
  return std::nullopt;
}

std::optional<std::int64_t> int64_at(const Json& object, std::string_view key) {
  const Json* value = find(object, key);
  return value == nullptr ? std::nullopt : as_int64(*value);
}

std::optional<std::uint64_t> uint64_at(const Json& object, std::string_view key) {
  const Json* value = find(object, key);
  if (value == nullptr || !value->is_number_unsigned()) return std::nullopt;
  return value->get<std::uint64_t>();
}

std::optional<bool> bool_at(const Json& object, std::string_view key) {
  const Json* value = find(object, key);
  if (value == nullptr || !value->is_boolean()) return std::nullopt;
  return value->get<bool>();
}

}  // namespace kforecast::json_document
