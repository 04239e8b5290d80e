// SPDX-License-Identifier: Apache-2.0
#include <sstream>

#include <catch2/catch.hpp>

#include "lint/diagnostic_writer.hpp"
#include "lint/rule_set.hpp"

using namespace kforecast::lint;
using Catch::Matchers::Contains;

namespace {

LintReport sample(const RuleSet& rules) {
  const Rule* rule = rules.find("syncthreads-in-divergent-branch");
  REQUIRE(rule != nullptr);
  return {"1.2.3",
          {{"src/a b.cu", 12, 7, rule, Severity::error, "bad \"barrier\"", "ns::k"}},
          {"forecast not run"},
          rules.rules()};
}

}  // namespace

TEST_CASE("lint: text diagnostics are compiler-style, coloured only when asked") {
  const RuleSet rules = builtin_rules();
  std::ostringstream plain, coloured;
  write_text(plain, sample(rules), Colour::off);
  CHECK(plain.str() == "src/a b.cu:12:7: error: bad \"barrier\" [syncthreads-in-divergent-branch]\n");
  write_text(coloured, sample(rules), Colour::on);
  CHECK_THAT(coloured.str(), Contains("\x1b[01;31merror:"));
  CHECK(colour_for(true, false) == Colour::on);
  CHECK(colour_for(true, true) == Colour::off);
  CHECK(colour_for(false, false) == Colour::off);
}

TEST_CASE("lint: JSON output") {
  const RuleSet rules = builtin_rules();
  std::ostringstream out;
  write_json(out, sample(rules));
  CHECK_THAT(out.str(), Contains("\"counts\": {\"error\": 1, \"warning\": 0, \"note\": 0}"));
  CHECK_THAT(out.str(), Contains("\"file\": \"src/a b.cu\", \"line\": 12, \"column\": 7, "
                                 "\"rule\": \"syncthreads-in-divergent-branch\", \"severity\": \"error\", "
                                 "\"message\": \"bad \\\"barrier\\\"\", \"function\": \"ns::k\""));
  CHECK_THAT(out.str(), Contains("\"notes\": [\"forecast not run\"]"));
}

TEST_CASE("lint: SARIF 2.1.0 output") {
  const RuleSet rules = builtin_rules();
  std::ostringstream out;
  write_sarif(out, sample(rules));
  const std::string text = out.str();
  CHECK_THAT(text, Contains("\"version\": \"2.1.0\""));
  CHECK_THAT(text, Contains("\"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\""));
  CHECK_THAT(text, Contains("\"ruleId\": \"syncthreads-in-divergent-branch\""));
  CHECK_THAT(text, Contains("\"level\": \"error\""));
  CHECK_THAT(text, Contains("\"uri\": \"src/a%20b.cu\""));
  CHECK_THAT(text, Contains("\"region\": {\"startLine\": 12, \"startColumn\": 7}"));
  const auto index =
      std::ranges::find(rules.rules(), "syncthreads-in-divergent-branch", &Rule::id) - rules.rules().begin();
  CHECK_THAT(text, Contains("\"ruleIndex\": " + std::to_string(index)));
  CHECK(path_uri("dir/na me+x.cu") == "dir/na%20me%2Bx.cu");
}

TEST_CASE("lint: a diagnostic's notes follow it in every format") {
  const RuleSet rules = builtin_rules();
  LintReport report = sample(rules);
  report.diagnostics[0].notes = {"first \"reason\"", "second"};
  std::ostringstream text, json, sarif;
  write_text(text, report, Colour::off);
  CHECK(text.str() ==
        "src/a b.cu:12:7: error: bad \"barrier\" [syncthreads-in-divergent-branch]\n"
        "src/a b.cu:12:7: note: first \"reason\"\n"
        "src/a b.cu:12:7: note: second\n");
  write_json(json, report);
  CHECK_THAT(json.str(), Contains("\"notes\": [\"first \\\"reason\\\"\", \"second\"]}"));
  write_sarif(sarif, report);
  CHECK_THAT(sarif.str(), Contains("\"message\": {\"text\": \"bad \\\"barrier\\\"\\nfirst \\\"reason\\\"\\nsecond\"}"));
}
