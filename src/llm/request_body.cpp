// SPDX-License-Identifier: Apache-2.0
#include "llm/request_body.hpp"

#include <fmt/format.h>

#include "base/json_string.hpp"

namespace kforecast::llm {

std::string_view to_string(OutputRung rung) {
  switch (rung) {
    case OutputRung::json_schema:
      return "json_schema";
    case OutputRung::forced_tool:
      return "forced tool call";
    case OutputRung::required_tool:
      return "required tool call";
    case OutputRung::json_object:
      return "json_object";
    case OutputRung::plain:
      break;
  }
  return "plain prompt";
}

std::string chat_request_body(const RequestShape& shape, std::span<const ChatMessage> messages,
                              std::string_view answer_schema) {
  std::string body = fmt::format("{{\"model\":{},\"messages\":[", json_string(shape.model));
  for (std::size_t i = 0; i < messages.size(); ++i)
    body += fmt::format("{}{{\"role\":{},\"content\":{}}}", i ? "," : "", json_string(messages[i].role),
                        json_string(messages[i].content));
  body += fmt::format("],\"temperature\":{},\"{}\":{},\"stream\":false", shape.temperature,
                      shape.token_field == TokenField::max_tokens ? "max_tokens" : "max_completion_tokens",
                      shape.max_tokens);
  const std::string tool = fmt::format(
      "\"tools\":[{{\"type\":\"function\",\"function\":{{\"name\":\"{}\",\"description\":\"Report the forecast "
      "speedup distribution for the candidate kernel.\",\"parameters\":{}}}}}]",
      forecast_tool_name, answer_schema);
  switch (shape.rung) {
    case OutputRung::json_schema:
      body += fmt::format(
          ",\"response_format\":{{\"type\":\"json_schema\",\"json_schema\":{{\"name\":\"speedup_forecast\","
          "\"schema\":{},\"strict\":true}}}}",
          answer_schema);
      break;
    case OutputRung::forced_tool:
      body += fmt::format(",{},\"tool_choice\":{{\"type\":\"function\",\"function\":{{\"name\":\"{}\"}}}}", tool,
                          forecast_tool_name);
      break;
    case OutputRung::required_tool:
      body += fmt::format(",{},\"tool_choice\":\"required\"", tool);
      break;
    case OutputRung::json_object:
      body += ",\"response_format\":{\"type\":\"json_object\"}";
      break;
    case OutputRung::plain:
      break;
  }
  return body + "}";
}

}  // namespace kforecast::llm
