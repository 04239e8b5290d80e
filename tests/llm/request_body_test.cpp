// SPDX-License-Identifier: Apache-2.0
#include "llm/request_body.hpp"

#include <nlohmann/json.hpp>
#include <catch2/catch.hpp>

#include "llm/prompt_set.hpp"

using namespace kforecast::llm;

namespace {

nlohmann::json parsed(const std::string& body) {
  nlohmann::json root = nlohmann::json::parse(body, nullptr, false);
  REQUIRE(!root.is_discarded());
  return root;
}

}  // namespace

TEST_CASE("llm: each rung of the ladder asks for structured output its own way") {
  const std::vector<ChatMessage> messages{{"system", "sys \"quoted\""}, {"user", "kernel\n{code}"}};
  const std::string& schema = builtin_prompts().answer_schema;
  RequestShape shape{"qwen", OutputRung::json_schema, TokenField::max_tokens, 2048, 0.0};

  auto root = parsed(chat_request_body(shape, messages, schema));
  CHECK(root["model"].get<std::string>() == "qwen");
  CHECK(root["temperature"].get<double>() == 0.0);  // always sent: Ollama defaults to 1.0
  CHECK(root["max_tokens"].get<int64_t>() == 2048);
  CHECK(root["stream"].get<bool>() == false);
  CHECK(root["messages"].at(0)["content"].get<std::string>() == "sys \"quoted\"");
  CHECK(root["response_format"]["type"].get<std::string>() == "json_schema");
  CHECK(root["response_format"]["json_schema"]["name"].get<std::string>() == "speedup_forecast");  // nested form
  CHECK(root["response_format"]["json_schema"]["strict"].get<bool>());
  CHECK(root["response_format"]["json_schema"]["schema"]["properties"].contains("predicted_bin"));
  CHECK(!root.contains("tools"));

  shape.rung = OutputRung::forced_tool;
  shape.token_field = TokenField::max_completion_tokens;
  root = parsed(chat_request_body(shape, messages, schema));
  CHECK(root["max_completion_tokens"].get<int64_t>() == 2048);
  CHECK(!root.contains("max_tokens"));
  CHECK(root["tools"].at(0)["function"]["name"].get<std::string>() == forecast_tool_name);
  CHECK(root["tool_choice"]["function"]["name"].get<std::string>() == forecast_tool_name);
  CHECK(!root.contains("response_format"));

  shape.rung = OutputRung::required_tool;
  root = parsed(chat_request_body(shape, messages, schema));
  CHECK(root["tool_choice"].get<std::string>() == "required");
  CHECK(root["tools"].size() == 1);

  shape.rung = OutputRung::json_object;
  root = parsed(chat_request_body(shape, messages, schema));
  CHECK(root["response_format"]["type"].get<std::string>() == "json_object");

  shape.rung = OutputRung::plain;
  root = parsed(chat_request_body(shape, messages, schema));
  CHECK(!root.contains("response_format"));
  CHECK(!root.contains("tools"));
}
