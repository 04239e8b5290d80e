// SPDX-License-Identifier: Apache-2.0
#include "llm/endpoint_check.hpp"

#include <catch2/catch.hpp>

#include "llm/client_harness.hpp"

using namespace kforecast::llm;
using namespace kforecast::testing;

TEST_CASE("llm check: the model list, OpenAI's and Ollama's shapes") {
  ClientHarness harness;
  harness.server.enqueue(ok(R"({"object":"list","data":[{"id":"gpt-4.1","object":"model"},{"id":"test-model"}]})"));
  harness.server.enqueue(ok(R"({"models":[{"name":"qwen2.5-coder:14b","model":"qwen2.5-coder:14b"}]})"));
  auto settings = harness.settings();
  settings.api_key = "k";
  auto client = harness.client(settings);
  auto openai = check_models(*client, *harness.transport);
  CHECK(openai.reachable);
  CHECK(openai.authenticated);
  CHECK(openai.models == std::vector<std::string>{"gpt-4.1", "test-model"});
  auto ollama = check_models(*client, *harness.transport);
  CHECK(ollama.models == std::vector<std::string>{"qwen2.5-coder:14b"});
  const auto request = harness.server.requests().at(0);
  CHECK(request.method == "GET");
  CHECK(request.target == "/v1/models");
  CHECK(request.header("authorization") == "Bearer k");
}

TEST_CASE("llm check: an unreachable endpoint, a refused key, a missing list") {
  ClientHarness harness;
  harness.server.enqueue(fixture_response(401, "error_openai_invalid_key.json"));
  harness.server.enqueue(ScriptedResponse::json(404, R"({"detail":"Not Found"})"));
  auto client = harness.client();
  auto refused = check_models(*client, *harness.transport);
  CHECK(refused.reachable);
  CHECK_FALSE(refused.authenticated);
  CHECK_THAT(refused.problem, Catch::Contains("KFORECAST_API_KEY"));
  auto missing = check_models(*client, *harness.transport);
  CHECK(missing.authenticated);
  CHECK_THAT(missing.problem, Catch::Contains("HTTP 404"));

  auto settings = harness.settings();
  {
    FakeHttpServer gone;
    settings.url = gone.base_url() + "/v1";
  }
  auto down = check_models(*harness.client(settings), *harness.transport);
  CHECK_FALSE(down.reachable);
  CHECK_THAT(down.problem, Catch::Contains("connection failed"));
}

TEST_CASE("llm check: which structured-output method works") {
  ClientHarness harness;
  harness.server.enqueue(fixture_response(400, "error_openai_response_format.json"));
  harness.server.enqueue(fixture_response(200, "openai_tool_call.json"));
  auto client = harness.client();
  auto output = check_structured_output(*client);
  CHECK(output.works);
  CHECK(output.method == "forced tool call (tool call)");
  CHECK(output.requests == 2);
}
