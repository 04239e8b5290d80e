// SPDX-License-Identifier: Apache-2.0
#include "llm/request_body.hpp"

#include <simdjson.h>
#include <catch2/catch.hpp>

#include "llm/prompt_set.hpp"

using namespace kforecast::llm;

namespace {

simdjson::dom::element parsed(simdjson::dom::parser& parser, const std::string& body) {
  simdjson::dom::element root;
  REQUIRE(parser.parse(body).get(root) == simdjson::SUCCESS);
  return root;
}

}  // namespace

TEST_CASE("llm: each rung of the ladder asks for structured output its own way") {
  const std::vector<ChatMessage> messages{{"system", "sys \"quoted\""}, {"user", "kernel\n{code}"}};
  const std::string& schema = builtin_prompts().answer_schema;
  simdjson::dom::parser parser;
  RequestShape shape{"qwen", OutputRung::json_schema, TokenField::max_tokens, 2048, 0.0};

  auto root = parsed(parser, chat_request_body(shape, messages, schema));
  CHECK(std::string_view(root["model"]) == "qwen");
  CHECK(double(root["temperature"]) == 0.0);  // always sent: Ollama defaults to 1.0
  CHECK(int64_t(root["max_tokens"]) == 2048);
  CHECK(bool(root["stream"]) == false);
  CHECK(std::string_view(root["messages"].at(0)["content"]) == "sys \"quoted\"");
  CHECK(std::string_view(root["response_format"]["type"]) == "json_schema");
  CHECK(std::string_view(root["response_format"]["json_schema"]["name"]) == "speedup_forecast");  // nested form
  CHECK(bool(root["response_format"]["json_schema"]["strict"]));
  CHECK(root["response_format"]["json_schema"]["schema"]["properties"]["predicted_bin"].error() == simdjson::SUCCESS);
  CHECK(root["tools"].error() == simdjson::NO_SUCH_FIELD);

  shape.rung = OutputRung::forced_tool;
  shape.token_field = TokenField::max_completion_tokens;
  root = parsed(parser, chat_request_body(shape, messages, schema));
  CHECK(int64_t(root["max_completion_tokens"]) == 2048);
  CHECK(root["max_tokens"].error() == simdjson::NO_SUCH_FIELD);
  CHECK(std::string_view(root["tools"].at(0)["function"]["name"]) == forecast_tool_name);
  CHECK(std::string_view(root["tool_choice"]["function"]["name"]) == forecast_tool_name);
  CHECK(root["response_format"].error() == simdjson::NO_SUCH_FIELD);

  shape.rung = OutputRung::required_tool;
  root = parsed(parser, chat_request_body(shape, messages, schema));
  CHECK(std::string_view(root["tool_choice"]) == "required");
  CHECK(root["tools"].get_array().size() == 1);

  shape.rung = OutputRung::json_object;
  root = parsed(parser, chat_request_body(shape, messages, schema));
  CHECK(std::string_view(root["response_format"]["type"]) == "json_object");

  shape.rung = OutputRung::plain;
  root = parsed(parser, chat_request_body(shape, messages, schema));
  CHECK(root["response_format"].error() == simdjson::NO_SUCH_FIELD);
  CHECK(root["tools"].error() == simdjson::NO_SUCH_FIELD);
}
