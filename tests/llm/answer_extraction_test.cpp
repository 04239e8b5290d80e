// SPDX-License-Identifier: Apache-2.0
#include "llm/answer_extraction.hpp"

#include <catch2/catch.hpp>

#include "llm/answer_validation.hpp"
#include "llm/fixture_text.hpp"

using namespace kforecast::llm;
using kforecast::testing::endpoint_fixture;

TEST_CASE("llm: the answer is found wherever each server puts it") {
  struct Case {
    const char* fixture;
    const char* where;
  };
  const Case cases[] = {
      {"openai_json_schema.json", "content"},
      {"openai_tool_call.json", "tool call"},
      {"azure_tool_call.json", "tool call"},
      {"vllm_reasoning_tool_call.json", "tool call"},
      {"sglang_reasoning_content.json", "content"},
      {"llamacpp_think_fenced.json", "content"},
      {"ollama_content.json", "content"},
      {"lmstudio_content.json", "content"},
      {"gptoss_tool_json_in_content.json", "content"},
      {"content_parts.json", "content"},
      {"tool_arguments_object.json", "tool call"},
      {"reasoning_only.json", "reasoning"},
  };
  for (const auto& c : cases) {
    INFO(c.fixture);
    auto answer = extract_answer(endpoint_fixture(c.fixture), "report_speedup_forecast");
    REQUIRE(answer);
    REQUIRE(answer->json);
    CHECK(answer->where == c.where);
    auto valid = validate_answer(*answer->json);
    REQUIRE(valid);
    CHECK(valid->distribution.probability(kforecast::forecast::SpeedupBin::minor_speedup) ==
          Approx(kforecast::testing::fixture_p5));
    CHECK(valid->stated_bin == kforecast::forecast::SpeedupBin::minor_speedup);
    CHECK_THAT(valid->rationale, Catch::Contains("coalesces"));
  }
}

TEST_CASE("llm: a completion without a JSON answer, and bodies that are not completions") {
  auto prose = extract_answer(endpoint_fixture("prose_no_json.json"), "report_speedup_forecast");
  REQUIRE(prose);
  CHECK_FALSE(prose->json);
  CHECK_THAT(prose->raw_text, Catch::Contains("bin 5"));
  auto cut = extract_answer(endpoint_fixture("length_cut.json"), "report_speedup_forecast");
  REQUIRE(cut);
  CHECK(cut->finish_reason == "length");
  CHECK_FALSE(cut->json);

  CHECK_FALSE(extract_answer("<html>502</html>", "f"));
  CHECK_FALSE(extract_answer(R"({"choices": []})", "f"));
  CHECK_FALSE(extract_answer(R"({"error": {"message": "x"}})", "f"));
  auto no_message = extract_answer(R"({"choices": [{"finish_reason": "stop"}]})", "f");
  REQUIRE(no_message);
  CHECK_FALSE(no_message->json);
}

TEST_CASE("llm: another function's tool call is skipped when ours is there") {
  const std::string body = R"({"choices":[{"finish_reason":"tool_calls","message":{"tool_calls":[
    {"function":{"name":"other","arguments":"{\"x\":1}"}},
    {"function":{"name":"report_speedup_forecast","arguments":"{\"y\":2}"}}]}}]})";
  auto answer = extract_answer(body, "report_speedup_forecast");
  REQUIRE(answer);
  REQUIRE(answer->json);
  CHECK(*answer->json == R"({"y":2})");
}

TEST_CASE("llm: the first balanced JSON object in free text") {
  CHECK(find_json_object("```json\n{\"a\": 1}\n```") == std::optional<std::string>("{\"a\": 1}"));
  CHECK(find_json_object("<think>{\"draft\": 0}</think> final {\"a\": \"}\"}") ==
        std::optional<std::string>("{\"a\": \"}\"}"));
  CHECK(find_json_object("set {x} then {\"a\": {\"b\": [1, 2]}} and {\"c\": 3}") ==
        std::optional<std::string>("{\"a\": {\"b\": [1, 2]}}"));
  CHECK_FALSE(find_json_object("no object { here"));
  CHECK_FALSE(find_json_object("{\"p1\": NaN}"));
  CHECK_FALSE(find_json_object(""));
  // An unclosed <think> is kept: the answer may be inside it.
  CHECK(find_json_object("<think>{\"a\": 1}") == std::optional<std::string>("{\"a\": 1}"));
}
