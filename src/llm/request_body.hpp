// SPDX-License-Identifier: Apache-2.0
#pragma once

// The chat-completions request body for each rung of the structured-output ladder:
// nested json_schema, one tool with a forced choice, the same tool with
// tool_choice "required" (the portable spelling where the object form is refused or ignored),
// json_object, and a plain prompt. Temperature is always sent explicitly.

#include <span>
#include <string>
#include <string_view>

namespace kforecast::llm {

enum class OutputRung { json_schema, forced_tool, required_tool, json_object, plain };
inline constexpr int rung_count = 5;

std::string_view to_string(OutputRung rung);

// OpenAI's reasoning models reject max_tokens and want max_completion_tokens.
enum class TokenField { max_tokens, max_completion_tokens };

inline constexpr std::string_view forecast_tool_name = "report_speedup_forecast";

struct ChatMessage {
  std::string role;  // "system", "user", "assistant"
  std::string content;
};

struct RequestShape {
  std::string model;
  OutputRung rung = OutputRung::json_schema;
  TokenField token_field = TokenField::max_tokens;
  int max_tokens = 4096;
  double temperature = 0.0;
};

// `answer_schema` is the JSON schema text of prompts/answer_schema.json.
std::string chat_request_body(const RequestShape& shape, std::span<const ChatMessage> messages,
                              std::string_view answer_schema);

}  // namespace kforecast::llm
