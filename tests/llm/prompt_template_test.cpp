// SPDX-License-Identifier: Apache-2.0
#include "llm/prompt_template.hpp"

#include <catch2/catch.hpp>

using kforecast::llm::render_template;

TEST_CASE("llm: templates substitute {{name}} and nothing else") {
  auto text = render_template("Kernel {{kernel_name}} on {{ gpu }}.", {{"kernel_name", "k"}, {"gpu", "H100"}}, "t");
  REQUIRE(text);
  CHECK(*text == "Kernel k on H100.");

  SECTION("values are inserted verbatim, never rescanned") {
    auto injected = render_template("{{a}}", {{"a", "{{b}}"}, {"b", "secret"}}, "t");
    REQUIRE(injected);
    CHECK(*injected == "{{b}}");
  }
  SECTION("single braces are text") {
    auto braces = render_template("{ int x; } {a}", {}, "t");
    REQUIRE(braces);
    CHECK(*braces == "{ int x; } {a}");
  }
}

TEST_CASE("llm: an unknown or malformed placeholder is an error naming template and line") {
  auto unknown = render_template("line one\nKernel {{kernal_name}}", {{"kernel_name", "k"}}, "prompts/user.txt");
  REQUIRE_FALSE(unknown);
  CHECK_THAT(unknown.error().message,
             Catch::Contains("prompts/user.txt:2") && Catch::Contains("kernal_name") && Catch::Contains("kernel_name"));
  auto unclosed = render_template("{{kernel_name", {{"kernel_name", "k"}}, "t");
  REQUIRE_FALSE(unclosed);
  CHECK_THAT(unclosed.error().message, Catch::Contains("without a closing"));
  auto bad = render_template("{{kernel-name}}", {}, "t");
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error().message, Catch::Contains("not a placeholder"));
}
