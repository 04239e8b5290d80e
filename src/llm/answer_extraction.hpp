// SPDX-License-Identifier: Apache-2.0
#pragma once

// Finding the model's answer in a chat-completions response, wherever the server put it
// (fixtures/endpoints/ holds each server's shape): our tool call's arguments (a JSON string to parse
// again, or an object), then message.content (a string, an array of parts, or null), then the
// reasoning fields (`reasoning`, `reasoning_content`). Any bytes are safe input (a fuzz target).

#include <optional>
#include <string>
#include <string_view>

#include "base/error.hpp"

namespace kforecast::llm {

struct CompletionAnswer {
  std::string finish_reason;        // "stop", "length", "tool_calls", ... or ""
  std::optional<std::string> json;  // the answer object's JSON text, when one was found
  std::string where;                // "tool call", "content", "reasoning": where `json` came from
  std::string raw_text;             // the first non-empty answer text, for a repair request
};

// Fails only when the body is not a chat completion at all (not JSON, no choices); a completion
// whose answer holds no JSON object is a success with `json` empty.
Result<CompletionAnswer> extract_answer(std::string_view response_body, std::string_view tool_name);

// The first balanced {...} in free text that parses as a JSON object, after dropping
// <think>...</think> blocks; code fences and prose around it are skipped by construction.
std::optional<std::string> find_json_object(std::string_view text);

}  // namespace kforecast::llm
