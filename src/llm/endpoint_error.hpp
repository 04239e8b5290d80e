// SPDX-License-Identifier: Apache-2.0
#pragma once

// Error bodies as servers send them: {"error":{"message","type","param","code"}} (code a string
// or an int), a flat {"object":"error","message",...}, {"error":"text"}, {"detail":...}, or
// anything else (HTML from a proxy), which is summarised as text.

#include <string>
#include <string_view>

namespace kforecast::llm {

struct EndpointError {
  std::string message;  // the server's words, or the start of a non-JSON body
  std::string type;
  std::string param;
  std::string code;  // an int code is given as its digits
};

EndpointError parse_endpoint_error(std::string_view body);

// A 400 that rejects a structured-output feature (response_format, json_schema, tool_choice,
// tools): the ladder steps down rather than failing.
bool rejects_structured_output(const EndpointError& error);

// A 400 that rejects `max_tokens` (OpenAI's reasoning models want max_completion_tokens).
bool rejects_max_tokens(const EndpointError& error);

// A 429 that retrying cannot fix: the account is out of credit.
bool is_insufficient_quota(const EndpointError& error);

}  // namespace kforecast::llm
