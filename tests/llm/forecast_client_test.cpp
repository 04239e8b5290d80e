// SPDX-License-Identifier: Apache-2.0
// The client against each server's shapes: where the answer is, the structured-output ladder,
// validation with one repair, the cut-off answer, auth styles. Retries and failures are in
// forecast_client_retry_test.cpp.

#include "llm/forecast_client.hpp"

#include <catch2/catch.hpp>

#include "llm/client_harness.hpp"

using namespace kforecast::llm;
using namespace kforecast::testing;
using kforecast::forecast::SpeedupBin;

TEST_CASE("llm client: one request per forecast for every server's answer shape") {
  for (const char* fixture :
       {"openai_json_schema.json", "openai_tool_call.json", "azure_tool_call.json", "vllm_reasoning_tool_call.json",
        "sglang_reasoning_content.json", "llamacpp_think_fenced.json", "ollama_content.json", "lmstudio_content.json",
        "gptoss_tool_json_in_content.json", "content_parts.json", "tool_arguments_object.json",
        "reasoning_only.json"}) {
    INFO(fixture);
    ClientHarness harness;
    harness.server.enqueue(fixture_response(200, fixture));
    auto client = harness.client();
    auto result = client->forecast(test_prompt());
    REQUIRE(result);
    CHECK(harness.server.request_count() == 1);
    CHECK(result->requests == 1);
    CHECK(result->distribution.predicted_bin() == SpeedupBin::minor_speedup);
    CHECK(result->distribution.probability(SpeedupBin::minor_speedup) == Approx(fixture_p5));
    CHECK(result->model == "test-model");
    CHECK(result->prompt_version == builtin_prompts().version);
    CHECK_THAT(result->method, Catch::StartsWith("json_schema"));
  }
}

TEST_CASE("llm client: the request a server receives") {
  ClientHarness harness;
  harness.server.enqueue(ok(content_completion(good_answer())));
  auto settings = harness.settings();
  settings.api_key = "sk-abc";
  settings.temperature = 0.3;
  auto result = harness.client(settings)->forecast(test_prompt());
  REQUIRE(result);
  const auto request = harness.server.requests().at(0);
  CHECK(request.method == "POST");
  CHECK(request.target == "/v1/chat/completions");
  CHECK(request.header("authorization") == "Bearer sk-abc");
  CHECK(request.header("content-type") == "application/json");
  auto body = harness.body(0);
  CHECK(body["model"].get<std::string>() == "test-model");
  CHECK(body["temperature"].get<double>() == 0.3);
  CHECK(body["messages"].at(0)["role"].get<std::string>() == "system");
  CHECK(body["messages"].at(1)["content"].get<std::string>() == "user text: kernel k");
  CHECK(body["response_format"]["type"].get<std::string>() == "json_schema");
}

TEST_CASE("llm client: auth styles: Azure api-key with deployment path, none") {
  ClientHarness harness;
  harness.server.enqueue(fixture_response(200, "azure_tool_call.json"));
  harness.server.enqueue(ok(content_completion(good_answer())));
  auto azure = harness.settings();
  azure.url = harness.server.base_url() + "/openai/";
  azure.model = "gpt4o-deployment";
  azure.auth = AuthStyle::api_key;
  azure.api_key = "azure-key";
  azure.api_version = "2024-10-21";
  REQUIRE(harness.client(azure)->forecast(test_prompt()));
  auto request = harness.server.requests().at(0);
  CHECK(request.target == "/openai/deployments/gpt4o-deployment/chat/completions?api-version=2024-10-21");
  CHECK(request.header("api-key") == "azure-key");
  CHECK_FALSE(request.header("authorization"));

  auto none = harness.settings();
  none.auth = AuthStyle::none;
  none.api_key = "unused";
  REQUIRE(harness.client(none)->forecast(test_prompt()));
  request = harness.server.requests().at(1);
  CHECK_FALSE(request.header("authorization"));
  CHECK_FALSE(request.header("api-key"));
}

TEST_CASE("llm client: the ladder steps down on refusals and remembers for the run") {
  ClientHarness harness;
  // OpenAI-style refusal of json_schema, then LM Studio's 400 on an object tool_choice.
  harness.server.enqueue(fixture_response(400, "error_openai_response_format.json"));
  harness.server.enqueue(fixture_response(400, "error_lmstudio_string.json"));
  harness.server.enqueue(fixture_response(200, "openai_tool_call.json"));
  harness.server.enqueue(fixture_response(200, "openai_tool_call.json"));
  auto client = harness.client();
  auto first = client->forecast(test_prompt());
  REQUIRE(first);
  CHECK(harness.server.request_count() == 3);
  CHECK(first->requests == 3);
  CHECK(first->method == "required tool call (tool call)");
  CHECK(client->rung() == OutputRung::required_tool);

  CHECK(harness.body(0)["response_format"]["type"].get<std::string>() == "json_schema");
  CHECK(harness.body(1)["tool_choice"]["type"].get<std::string>() == "function");
  CHECK(harness.body(2)["tool_choice"].get<std::string>() == "required");

  // The next kernel starts where the ladder stopped: one request.
  auto second = client->forecast(test_prompt());
  REQUIRE(second);
  CHECK(second->requests == 1);
  CHECK(harness.body(3)["tool_choice"].get<std::string>() == "required");
}

TEST_CASE("llm client: llama.cpp ignoring json_schema: a prose answer steps down too") {
  ClientHarness harness;
  harness.server.enqueue(fixture_response(200, "prose_no_json.json"));
  harness.server.enqueue(fixture_response(400, "error_llamacpp_int_code.json"));  // tool_choice without --jinja
  harness.server.enqueue(fixture_response(200, "prose_no_json.json"));            // "required" ignored
  harness.server.enqueue(fixture_response(200, "llamacpp_think_fenced.json"));    // json_object works
  auto client = harness.client();
  auto result = client->forecast(test_prompt());
  REQUIRE(result);
  CHECK(harness.server.request_count() == 4);
  CHECK(client->rung() == OutputRung::json_object);
  CHECK(result->method == "json_object (content)");
}

TEST_CASE("llm client: a server that refuses every rung fails with the server's words") {
  ClientHarness harness;
  for (int i = 0; i < 4; ++i) harness.server.enqueue(fixture_response(400, "error_openai_response_format.json"));
  harness.server.enqueue(ScriptedResponse::json(400, R"({"error":{"message":"context length exceeded"}})"));
  auto client = harness.client();
  auto result = client->forecast(test_prompt());
  REQUIRE_FALSE(result);
  CHECK(harness.server.request_count() == 5);
  CHECK(client->rung() == OutputRung::plain);
  CHECK_THAT(result.error().message, Catch::Contains("HTTP 400: context length exceeded"));
  CHECK(result.error().requests == 5);
}

TEST_CASE("llm client: max_tokens refused: max_completion_tokens from then on") {
  ClientHarness harness;
  harness.server.enqueue(fixture_response(400, "error_openai_max_tokens.json"));
  harness.server.enqueue(ok(content_completion(good_answer())));
  harness.server.enqueue(ok(content_completion(good_answer())));
  auto client = harness.client();
  REQUIRE(client->forecast(test_prompt()));
  REQUIRE(client->forecast(test_prompt()));
  CHECK(harness.server.request_count() == 3);
  CHECK(harness.body(0)["max_tokens"].get<int64_t>() == 1000);
  CHECK(harness.body(1)["max_completion_tokens"].get<int64_t>() == 1000);
  CHECK(!harness.body(2).contains("max_tokens"));
  CHECK(client->rung() == OutputRung::json_schema);  // not a ladder refusal
}

TEST_CASE("llm client: sums of 0.8 and 1.2 are renormalised, the raw sum kept") {
  for (auto [each, sum] : {std::pair{"0.1", 0.8}, std::pair{"0.15", 1.2}}) {
    ClientHarness harness;
    harness.server.enqueue(ok(content_completion(answer_object({each, each, each, each, each, each, each, each}))));
    auto result = harness.client()->forecast(test_prompt());
    REQUIRE(result);
    CHECK(harness.server.request_count() == 1);
    CHECK(result->distribution.raw_sum() == Approx(sum));
    CHECK(result->distribution.probability(SpeedupBin::minor_speedup) == Approx(0.125));
    CHECK_THAT(result->notes.back(), Catch::Contains("summed to"));
  }
}

TEST_CASE("llm client: a sum that is 1 but for binary rounding is not called renormalised") {
  ClientHarness harness;  // 0.05 + 0.35 + 0.5 + 0.1 is 0.9999999999999999 in doubles
  harness.server.enqueue(ok(content_completion(answer_object({"0", "0", "0.05", "0.35", "0.5", "0.1", "0", "0"}))));
  auto result = harness.client()->forecast(test_prompt());
  REQUIRE(result);
  CHECK(result->notes.empty());
}

TEST_CASE("llm client: an invalid answer gets one repair request quoting the error") {
  struct Case {
    std::string answer;
    std::string error;
  };
  const Case cases[] = {
      {answer_object({"0", "0", "0", "0.5", "0.5", "0.5", "0", "0"}), "sum to 1.5"},
      {answer_object({"0", "0", "0", "0.5", "0.5", "-0.2", "0.2", "0"}), "'p6_significant_speedup' is -0.2"},
      {answer_object({"0", "0", "0", "0.5", "0.5", "\"NaN\"", "0", "0"}), "'p6_significant_speedup' is nan"},
      {answer_object({"0", "0", "0", "0.5", "0.5", "", "", ""}), "missing p6_significant_speedup"},
      {answer_object({"0", "0", "0", "0.5", "0.5", "0", "0", "0"}, "9"), "'predicted_bin' is 9"},
  };
  for (const auto& c : cases) {
    INFO(c.answer);
    ClientHarness harness;
    harness.server.enqueue(ok(content_completion("<think>hmm</think>```json\n" + c.answer + "\n```")));
    harness.server.enqueue(ok(content_completion(good_answer())));
    auto result = harness.client()->forecast(test_prompt());
    REQUIRE(result);
    CHECK(harness.server.request_count() == 2);
    CHECK(result->distribution.probability(SpeedupBin::minor_speedup) == Approx(0.6));
    CHECK_THAT(result->notes.at(0), Catch::Contains("one repair request"));
      auto messages = harness.body(1)["messages"];
    REQUIRE(messages.size() == 4);
    CHECK(messages.at(2)["role"].get<std::string>() == "assistant");
    CHECK_THAT(messages.at(2)["content"].get<std::string>(), Catch::Contains(c.answer));
    CHECK(messages.at(3)["role"].get<std::string>() == "user");
    CHECK_THAT(messages.at(3)["content"].get<std::string>(), Catch::Contains(c.error));
  }
}

TEST_CASE("llm client: an answer still invalid after the repair is a failure, not a forecast") {
  ClientHarness harness;
  const std::string bad = answer_object({"0", "0", "0", "0.5", "0.5", "0.5", "0", "0"});
  harness.server.enqueue(ok(content_completion(bad)));
  harness.server.enqueue(ok(content_completion(bad)));
  auto result = harness.client()->forecast(test_prompt());
  REQUIRE_FALSE(result);
  CHECK(harness.server.request_count() == 2);
  CHECK(result.error().requests == 2);
  CHECK_THAT(result.error().message, Catch::Contains("invalid after one repair request") && Catch::Contains("1.5"));
}

TEST_CASE("llm client: prose at the last rung gets the repair request") {
  ClientHarness harness;
  for (int i = 0; i < 4; ++i) harness.server.enqueue(fixture_response(200, "prose_no_json.json"));
  harness.server.enqueue(fixture_response(200, "prose_no_json.json"));
  harness.server.enqueue(fixture_response(200, "prose_no_json.json"));
  auto client = harness.client();
  auto result = client->forecast(test_prompt());
  REQUIRE_FALSE(result);
  CHECK(harness.server.request_count() == 6);  // four step-downs, the plain prompt, its repair
  CHECK_THAT(result.error().message, Catch::Contains("holds no JSON object"));
}

TEST_CASE("llm client: finish_reason length: one retry with twice the budget") {
  ClientHarness harness;
  harness.server.enqueue(fixture_response(200, "length_cut.json"));
  harness.server.enqueue(ok(content_completion(good_answer())));
  auto result = harness.client()->forecast(test_prompt());
  REQUIRE(result);
  CHECK(harness.server.request_count() == 2);
  CHECK(harness.body(1)["max_tokens"].get<int64_t>() == 2000);

  ClientHarness twice;
  twice.server.enqueue(fixture_response(200, "length_cut.json"));
  twice.server.enqueue(fixture_response(200, "length_cut.json"));
  auto failed = twice.client()->forecast(test_prompt());
  REQUIRE_FALSE(failed);
  CHECK(twice.server.request_count() == 2);
  CHECK_THAT(failed.error().message, Catch::Contains("cut off twice") && Catch::Contains("endpoint.max_tokens"));
}

TEST_CASE("llm client: self-consistency averages samples into one distribution") {
  ClientHarness harness;
  harness.server.enqueue(ok(content_completion(answer_object({"0", "0", "0", "1", "0", "0", "0", "0"}, "4"))));
  harness.server.enqueue(ok(content_completion(answer_object({"0", "0", "0", "0", "1", "0", "0", "0"}))));
  harness.server.enqueue(ok(content_completion(answer_object({"0", "0", "0", "0", "1", "0", "0", "0"}))));
  auto settings = harness.settings();
  settings.samples = 3;
  auto result = harness.client(settings)->forecast(test_prompt());
  REQUIRE(result);
  CHECK(harness.server.request_count() == 3);
  CHECK(result->requests == 3);
  CHECK(result->samples == 3);
  CHECK(result->distribution.probability(SpeedupBin::minor_slowdown) == Approx(1.0 / 3));
  CHECK(result->distribution.probability(SpeedupBin::minor_speedup) == Approx(2.0 / 3));
}

TEST_CASE("llm client: LM Studio's 400s on an object tool_choice and on json_object lead to the plain prompt") {
  ClientHarness harness;
  // Keyed on what each request asks for, as the server would decide: json_schema refused (a
  // model without structured output), the object tool_choice and json_object refused in LM
  // Studio's words, "required" answered with prose, the plain prompt answered.
  harness.server.set_handler([](const RecordedRequest& request, std::size_t) {
    nlohmann::json body = nlohmann::json::parse(request.body);
    if (body.contains("response_format") && body["response_format"].contains("type")) {
      const std::string format = body["response_format"]["type"];
      if (format == "json_schema") return fixture_response(400, "error_openai_response_format.json");
      return ScriptedResponse::json(400, R"({"error":"'response_format.type' must be 'json_schema' or 'text'"})");
    }
    if (body["tool_choice"].is_object()) return fixture_response(400, "error_lmstudio_string.json");
    if (body["tool_choice"].is_string()) return fixture_response(200, "prose_no_json.json");
    return fixture_response(200, "lmstudio_content.json");
  });
  auto client = harness.client();
  auto result = client->forecast(test_prompt());
  REQUIRE(result);
  CHECK(harness.server.request_count() == 5);
  CHECK(result->requests == 5);
  CHECK(client->rung() == OutputRung::plain);
  CHECK(result->method == "plain prompt (content)");
  CHECK(result->distribution.probability(SpeedupBin::minor_speedup) == Approx(fixture_p5));
}
