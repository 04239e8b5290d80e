// SPDX-License-Identifier: Apache-2.0
#include "llm/endpoint_error.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/json_document.hpp"

namespace kforecast::llm {
namespace {

std::string text_of(const Json& element) {
  if (element.is_string()) return element.get<std::string>();
  if (const auto number = json_document::as_int64(element)) return std::to_string(*number);
  if (element.is_null()) return "";
  return json_document::compact(element);
}

std::string field(const Json& object, std::string_view key) {
  const Json* value = json_document::find(object, key);
  return value != nullptr ? text_of(*value) : "";
}

// The start of a body that is not JSON, on one line, tags dropped: enough to recognise a proxy's
// error page without pasting HTML into a report.
std::string summary(std::string_view body) {
  std::string out;
  bool in_tag = false;
  for (char c : body) {
    if (c == '<')
      in_tag = true;
    else if (c == '>')
      in_tag = false, c = ' ';
    if (in_tag) continue;
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (static_cast<unsigned char>(c) < 0x20) continue;
    if (c == ' ' && (out.empty() || out.back() == ' ')) continue;
    out += c;
    if (out.size() >= 200) break;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out.empty() ? "(empty body)" : out;
}

bool names_any(const EndpointError& error, std::initializer_list<std::string_view> words) {
  for (auto word : words)
    if (error.param.find(word) != std::string::npos || error.message.find(word) != std::string::npos ||
        error.code.find(word) != std::string::npos)
      return true;
  return false;
}

}  // namespace

EndpointError parse_endpoint_error(std::string_view body) {
  const auto root = json_document::parse(body);
  if (!root || !root->is_object()) return {summary(body), "", "", ""};
  const Json& object = *root;
  if (const Json* error = json_document::find(object, "error")) {
    if (error->is_object())
      return {field(*error, "message"), field(*error, "type"), field(*error, "param"), field(*error, "code")};
    return {text_of(*error), field(object, "type"), field(object, "param"), field(object, "code")};
  }
  if (std::string message = field(object, "message"); !message.empty())
    return {message, field(object, "type"), field(object, "param"), field(object, "code")};
  if (std::string detail = field(object, "detail"); !detail.empty()) return {detail, "", "", ""};
  return {summary(body), "", "", ""};
}

bool rejects_structured_output(const EndpointError& error) {
  return names_any(error, {"response_format", "response format", "json_schema", "json_object", "tool_choice",
                           "tool choice", "tool-choice", "tools", "structured output", "guided_"});
}

bool rejects_max_tokens(const EndpointError& error) {
  return error.param == "max_tokens" ||
         (error.code == "unsupported_parameter" && error.message.find("max_tokens") != std::string::npos);
}

bool is_insufficient_quota(const EndpointError& error) {
  return error.code == "insufficient_quota" || error.type == "insufficient_quota";
}

}  // namespace kforecast::llm
