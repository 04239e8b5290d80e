// SPDX-License-Identifier: Apache-2.0
// Rule files: adding, overriding and removing rules, and the errors a bad file gets.

#include <set>

#include <catch2/catch.hpp>

#include "lint/linter.hpp"
#include "lint/rule_set.hpp"

using namespace kforecast::lint;
using Catch::Matchers::Contains;

namespace {

constexpr std::string_view new_rule = R"(
[[rule]]
id = "no-goto"
severity = "error"
summary = "goto in device code"
message = "'{match}' makes control flow irreducible"
guide = "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html"
[rule.match]
kind = "tokens"
pattern = ["goto"]
)";

std::string read_error(std::string_view text) {
  RuleSet set = builtin_rules();
  auto read = set.read(text, "repo/rules.toml");
  REQUIRE_FALSE(read.has_value());
  CHECK(read.error().exit_code == kforecast::ExitCode::usage);
  return read.error().message;
}

}  // namespace

TEST_CASE("lint: the built-in rules parse, with unique ids") {
  const RuleSet set = builtin_rules();
  std::set<std::string> ids;
  for (const auto& rule : set.rules()) CHECK(ids.insert(rule.id).second);
  const Rule* rule = set.find("double-literal");
  REQUIRE(rule != nullptr);
  CHECK(rule->severity == Severity::warning);
  CHECK_THAT(rule->origin, Contains("rules/precision.toml:"));
}

TEST_CASE("lint: a rule file adds rules, overrides fields of known ones, and turns them off and on") {
  RuleSet set = builtin_rules();
  const std::size_t before = set.rules().size();
  REQUIRE(set.read(new_rule, "repo.toml").has_value());
  CHECK(set.rules().size() == before + 1);
  REQUIRE(set.find("no-goto") != nullptr);
  CHECK(set.find("no-goto")->match.pattern == std::vector<std::string>{"goto"});

  REQUIRE(set.read("[[rule]]\nid = \"printf-in-kernel\"\nseverity = \"error\"\n", "repo.toml").has_value());
  const Rule* promoted = set.find("printf-in-kernel");
  REQUIRE(promoted != nullptr);
  CHECK(promoted->severity == Severity::error);
  CHECK(promoted->match.pattern == std::vector<std::string>{"printf", "("});  // kept
  CHECK_THAT(promoted->origin, Contains("repo.toml:1"));

  REQUIRE(set.read("[[rule]]\nid = \"printf-in-kernel\"\nenabled = false\n", "repo.toml").has_value());
  REQUIRE(set.find("printf-in-kernel") != nullptr);  // still listed, as off
  CHECK_FALSE(set.find("printf-in-kernel")->enabled);
  CHECK(set.find("printf-in-kernel")->severity == Severity::error);  // the override before is kept
  REQUIRE(set.read("[[rule]]\nid = \"printf-in-kernel\"\nenabled = true\n", "repo.toml").has_value());
  CHECK(set.find("printf-in-kernel")->enabled);
}

TEST_CASE("lint: bad rule files are errors naming file, line and field") {
  CHECK_THAT(read_error("[[rule]]\nid = \"x\"\nsevrity = \"error\"\n"),
             Contains("repo/rules.toml:3:11: unknown rule field 'sevrity' (did you mean 'severity'?)"));
  CHECK_THAT(read_error("[[rule]]\nid = \"printf-in-kernel\"\nseverity = \"fatal\"\n"),
             Contains("severity 'fatal': expected note, warning or error"));
  CHECK_THAT(read_error("[[rule]]\nid = \"Bad Id\"\n"), Contains("lowercase letters, digits and hyphens"));
  CHECK_THAT(read_error("[[rule]]\nid = \"brand-new\"\nseverity = \"note\"\n"),
             Contains("new rule 'brand-new' needs 'summary'"));
  CHECK_THAT(read_error("[[rule]]\nid = \"x\"\n[rule.match]\nkind = \"regex\"\n"),
             Contains("unknown matcher kind 'regex'"));
  CHECK_THAT(
      read_error("[[rule]]\nid = \"printf-in-kernel\"\n[rule.match]\nkind = \"tokens\"\npattern = [\"@float\"]\n"),
      Contains("unknown token class '@float'"));
  CHECK_THAT(read_error("[[rule]]\nid = \"printf-in-kernel\"\n[rule.match]\nkind = \"tokens\"\npattern = [\"a||b\"]\n"),
             Contains("empty alternative"));
  CHECK_THAT(
      read_error("[[rule]]\nid = \"register-spills\"\n[rule.match]\nkind = \"compiler_fact\"\nfact = \"speed\"\n"),
      Contains("compiler_fact needs 'fact'"));
  CHECK_THAT(read_error("[[rule]]\nid = \"printf-in-kernel\"\nguide = \"http://example.com\"\n"), Contains("https://"));
  CHECK_THAT(read_error("rule = 3\n"), Contains("write [[rule]]"));
  CHECK_THAT(read_error("[other]\n"), Contains("unknown top-level key 'other'"));
  CHECK_THAT(read_error("[[rule]\n"), Contains("repo/rules.toml:1:"));
  CHECK_THAT(read_error("[[rule]]\nid = \"printf-in-kernel\"\nenabled = \"no\"\n"), Contains("true or false"));
  CHECK_THAT(read_error("[[rule]]\nid = \"printf-in-kernel\"\nsummary = \"caf\xC3\xA9\"\nbad = '''\n\xC3\xA9\n'''\n"),
             Contains("repo/rules.toml:5:1: non-ASCII"));
}

TEST_CASE("lint: a failed read leaves the set as it was") {
  RuleSet set = builtin_rules();
  const std::size_t before = set.rules().size();
  std::string text(new_rule);
  text += "[[rule]]\nid = \"printf-in-kernel\"\nseverity = \"loud\"\n";
  CHECK_FALSE(set.read(text, "repo.toml").has_value());
  CHECK(set.rules().size() == before);
  CHECK(set.find("no-goto") == nullptr);
}

TEST_CASE("lint: an opt-in rule keeps its precision and runs only once a rule file turns it on") {
  RuleSet set = builtin_rules();
  REQUIRE(set.read(R"toml([[rule]]
id = "no-goto"
severity = "warning"
summary = "goto in device code"
message = "'{match}' makes control flow irreducible"
guide = "https://docs.nvidia.com/cuda/cuda-c-programming-guide/index.html"
enabled = false
precision = "50% (1/2)"
[rule.match]
kind = "tokens"
scope = "device"
pattern = ["goto"]
)toml",
                   "repo.toml")
              .has_value());
  const Rule* rule = set.find("no-goto");
  REQUIRE(rule != nullptr);
  CHECK_FALSE(rule->enabled);
  CHECK(rule->precision == "50% (1/2)");
  const std::string source = "__device__ void f() {\n  goto end;\nend:;\n}\n";
  const auto runs = [&](const RuleSet& rules) {
    for (const auto& d : lint_source("k.cu", source, rules.rules()))
      if (d.rule->id == "no-goto") return true;
    return false;
  };
  CHECK_FALSE(runs(set));
  REQUIRE(set.read("[[rule]]\nid = \"no-goto\"\nenabled = true\n", "repo.toml").has_value());
  CHECK(runs(set));
  CHECK_THAT(read_error("[[rule]]\nid = \"printf-in-kernel\"\nprecision = 90\n"),
             Contains("'precision' must be a string"));
}

TEST_CASE("lint: a built-in rule is on by default only with a measured precision of 90% or more") {
  const RuleSet set = builtin_rules();
  for (const auto& rule : set.rules()) {
    INFO(rule.id << ": " << rule.precision);
    const auto percent = rule.precision.find('%');
    if (percent != std::string::npos) {
      const int measured = std::stoi(rule.precision.substr(0, percent));
      CHECK(rule.enabled == (measured >= 90));
    } else if (!rule.precision.empty()) {
      CHECK_FALSE(rule.enabled);  // measured before, nothing left to measure: not earned yet
    }
    // An opt-in rule says what its precision was, so 'kforecast rules' shows why it is off.
    if (!rule.enabled) CHECK_FALSE(rule.precision.empty());
  }
}
