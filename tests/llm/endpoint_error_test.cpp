// SPDX-License-Identifier: Apache-2.0
#include "llm/endpoint_error.hpp"

#include <catch2/catch.hpp>

#include "llm/fixture_text.hpp"

using namespace kforecast::llm;
using kforecast::testing::endpoint_fixture;

TEST_CASE("llm: error bodies of every documented shape") {
  auto nested = parse_endpoint_error(endpoint_fixture("error_openai_response_format.json"));
  CHECK(nested.param == "response_format");
  CHECK(nested.type == "invalid_request_error");
  CHECK(rejects_structured_output(nested));

  auto int_code = parse_endpoint_error(endpoint_fixture("error_llamacpp_int_code.json"));
  CHECK(int_code.code == "400");
  CHECK(rejects_structured_output(int_code));

  auto flat = parse_endpoint_error(endpoint_fixture("error_vllm_flat.json"));
  CHECK_THAT(flat.message, Catch::Contains("tool choice requires"));
  CHECK(flat.code == "400");
  CHECK(rejects_structured_output(flat));

  auto text = parse_endpoint_error(endpoint_fixture("error_lmstudio_string.json"));
  CHECK_THAT(text.message, Catch::StartsWith("Invalid 'tool_choice'"));
  CHECK(rejects_structured_output(text));

  auto html = parse_endpoint_error(endpoint_fixture("error_proxy_502.html"));
  CHECK(html.message == "502 Bad Gateway 502 Bad Gateway nginx/1.22.1");
  CHECK_FALSE(rejects_structured_output(html));

  auto quota = parse_endpoint_error(endpoint_fixture("error_openai_insufficient_quota.json"));
  CHECK(is_insufficient_quota(quota));
  CHECK_FALSE(is_insufficient_quota(parse_endpoint_error(endpoint_fixture("error_openai_rate_limit.json"))));

  auto tokens = parse_endpoint_error(endpoint_fixture("error_openai_max_tokens.json"));
  CHECK(rejects_max_tokens(tokens));
  CHECK_FALSE(rejects_structured_output(tokens));

  CHECK(parse_endpoint_error("").message == "(empty body)");
  CHECK(parse_endpoint_error(R"({"detail": "Not Found"})").message == "Not Found");
}
