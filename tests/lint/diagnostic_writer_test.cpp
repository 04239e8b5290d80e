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
          rules.rules(),
          {}};
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

TEST_CASE("lint: rules that could not run are shown in every format, text included") {
  const RuleSet rules = builtin_rules();
  LintReport report = sample(rules);
  report.rules_not_run = {"compiler facts unavailable for k.cu: k.cu(3): error: identifier \"x\" is undefined"};
  std::ostringstream text, json, sarif;
  write_text(text, report, Colour::off);
  CHECK_THAT(text.str(), Contains("kforecast: note: compiler facts unavailable for k.cu: k.cu(3): error:"));
  write_json(json, report);
  CHECK_THAT(json.str(), Contains("\"rules_not_run\": [\"compiler facts unavailable for k.cu:"));
  write_sarif(sarif, report);
  CHECK_THAT(sarif.str(), Contains("\"toolExecutionNotifications\": [{\"level\": \"warning\", \"message\": "
                                   "{\"text\": \"compiler facts unavailable for k.cu:"));
}

TEST_CASE("lint: SARIF rule descriptions have their placeholders filled") {
  const RuleSet rules = builtin_rules();
  std::ostringstream out;
  write_sarif(out, sample(rules));
  const std::string text = out.str();
  CHECK_THAT(text, !Contains("''"));
  CHECK_THAT(text, !Contains("{match}"));
  CHECK_THAT(text, Contains("\"fullDescription\": {\"text\": \"'0.1' is a double:"));
  CHECK_THAT(text, Contains("the kernel uses more than 128 registers:"));
}

TEST_CASE("lint: SARIF results carry fingerprints that survive a moved line and tell twins apart") {
  const RuleSet rules = builtin_rules();
  const auto fingerprints_of = [&](const std::vector<std::uint32_t>& lines) {
    LintReport report = sample(rules);
    report.diagnostics.clear();
    for (auto line : lines)
      report.diagnostics.push_back({"k.cu", line, 3, rules.find("double-literal"), Severity::warning, "m", "k", {},
                                    "x[i] = x[i] * 0.5;"});
    std::ostringstream out;
    write_sarif(out, report);
    std::vector<std::string> found;
    const std::string text = out.str(), key = "\"partialFingerprints\": {\"kforecastLint/v1\": \"";
    for (auto at = text.find(key); at != std::string::npos; at = text.find(key, at + 1))
      found.push_back(text.substr(at + key.size(), text.find('"', at + key.size()) - at - key.size()));
    return found;
  };
  const auto before = fingerprints_of({10, 20});
  const auto after = fingerprints_of({14, 24});
  REQUIRE(before.size() == 2);
  CHECK(before == after);
  CHECK(before[0] != before[1]);
  CHECK(before[0].ends_with(":1"));
  CHECK(before[1].ends_with(":2"));
}

TEST_CASE("lint: text output never starts a line with a workflow command from the change") {
  const RuleSet rules = builtin_rules();
  LintReport report = sample(rules);
  report.diagnostics[0].path = "::error file=x::forged.cu";
  report.diagnostics[0].message = "bad\n::set-output name=x::y";
  report.diagnostics[0].notes = {"note\n  ::add-mask::hunter2"};
  report.rules_not_run = {"facts unavailable: k.cu(3): error\n::stop-commands::t"};
  for (const Colour colour : {Colour::off, Colour::on}) {
    std::ostringstream text;
    write_text(text, report, colour);
    INFO(text.str());
    std::istringstream lines(text.str());
    for (std::string line; std::getline(lines, line);) {
      const std::size_t first = std::min(line.find_first_not_of(" \t"), line.size());
      CHECK_FALSE(line.substr(first).starts_with("::"));
    }
  }
  std::ostringstream plain;
  write_text(plain, report, Colour::off);
  CHECK_THAT(plain.str(), Contains("| ::error file=x::forged.cu:12:7: error: bad ::set-output name=x::y ["));
}
