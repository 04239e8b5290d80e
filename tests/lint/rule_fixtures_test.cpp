// SPDX-License-Identifier: Apache-2.0
// Each built-in rule against its fixture in fixtures/lint: it fires on exactly the lines marked
// "// expect: RULE", and on none of the near misses (corrected forms, comments, strings, host
// code) around them.

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include <catch2/catch.hpp>

#include "lint/linter.hpp"
#include "lint/rule_set.hpp"
#include "lint/rule_text.hpp"

using namespace kforecast::lint;

namespace {

std::string read_fixture(const std::string& name) {
  std::ifstream file(std::string(KF_SOURCE_DIR) + "/fixtures/lint/" + name, std::ios::binary);
  REQUIRE(file.good());
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

std::set<std::uint32_t> marked_lines(const std::string& text, const std::string& id) {
  std::set<std::uint32_t> lines;
  std::istringstream in(text);
  std::string line;
  for (std::uint32_t number = 1; std::getline(in, line); ++number)
    if (line.find("// expect: " + id) != std::string::npos) lines.insert(number);
  return lines;
}

// Every built-in rule turned on: a fixture checks what a rule's matcher finds, opt-in or not.
RuleSet all_rules_on() {
  RuleSet rules = builtin_rules();
  std::string text;
  for (const auto& rule : rules.rules()) text += "[[rule]]\nid = \"" + rule.id + "\"\nenabled = true\n";
  REQUIRE(rules.read(text, "all-on.toml").has_value());
  return rules;
}

void check_fixture(const std::string& id) {
  static const RuleSet rules = all_rules_on();
  REQUIRE(rules.find(id) != nullptr);
  const std::string text = read_fixture(id + ".cu");
  const auto expected = marked_lines(text, id);
  REQUIRE_FALSE(expected.empty());  // every fixture shows the rule firing
  std::set<std::uint32_t> fired;
  for (const auto& diagnostic : lint_source(id + ".cu", text, rules.rules()))
    if (diagnostic.rule->id == id) fired.insert(diagnostic.line);
  CHECK(fired == expected);
}

}  // namespace

TEST_CASE("lint: double-literal fires exactly where marked") { check_fixture("double-literal"); }
TEST_CASE("lint: double-math-function fires exactly where marked") { check_fixture("double-math-function"); }
TEST_CASE("lint: printf-in-kernel fires exactly where marked") { check_fixture("printf-in-kernel"); }
TEST_CASE("lint: assert-in-kernel fires exactly where marked") { check_fixture("assert-in-kernel"); }
TEST_CASE("lint: device-heap-allocation fires exactly where marked") { check_fixture("device-heap-allocation"); }
TEST_CASE("lint: legacy-warp-intrinsic fires exactly where marked") { check_fixture("legacy-warp-intrinsic"); }
TEST_CASE("lint: syncthreads-in-divergent-branch fires exactly where marked") {
  check_fixture("syncthreads-in-divergent-branch");
}
TEST_CASE("lint: syncthreads-with-exited-threads fires exactly where marked") {
  check_fixture("syncthreads-with-exited-threads");
}
TEST_CASE("lint: shared-bank-conflict fires exactly where marked") { check_fixture("shared-bank-conflict"); }
TEST_CASE("lint: strided-global-access fires exactly where marked") { check_fixture("strided-global-access"); }
TEST_CASE("lint: atomic-uniform-address fires exactly where marked") { check_fixture("atomic-uniform-address"); }
TEST_CASE("lint: integer-division-in-loop fires exactly where marked") { check_fixture("integer-division-in-loop"); }
TEST_CASE("lint: local-array-dynamic-index fires exactly where marked") { check_fixture("local-array-dynamic-index"); }
TEST_CASE("lint: missing-restrict fires exactly where marked") { check_fixture("missing-restrict"); }
TEST_CASE("lint: block-size-not-multiple-of-32 fires exactly where marked") {
  check_fixture("block-size-not-multiple-of-32");
}
TEST_CASE("lint: launch-bounds-not-multiple-of-32 fires exactly where marked") {
  check_fixture("launch-bounds-not-multiple-of-32");
}
TEST_CASE("lint: volatile-shared-reduction fires exactly where marked") { check_fixture("volatile-shared-reduction"); }

TEST_CASE("lint: every built-in source rule has a fixture, and every rule an example pair and a guide link") {
  const RuleSet rules = builtin_rules();
  CHECK(rules.rules().size() >= 15);
  for (const auto& rule : rules.rules()) {
    INFO(rule.id);
    CHECK(rule.guide.starts_with("https://docs.nvidia.com/cuda/"));
    CHECK_FALSE(rule.bad.empty());
    CHECK_FALSE(rule.good.empty());
    CHECK_FALSE(rule.summary.empty());
    if (rule.match.kind == MatcherKind::compiler_fact || rule.match.kind == MatcherKind::launch_fact) continue;
    std::ifstream fixture(std::string(KF_SOURCE_DIR) + "/fixtures/lint/" + rule.id + ".cu");
    CHECK(fixture.good());
  }
}

TEST_CASE("lint: each source rule fires on its own bad example and not on its good one") {
  const RuleSet rules = builtin_rules();
  for (const auto& rule : rules.rules()) {
    if (rule.match.kind == MatcherKind::compiler_fact || rule.match.kind == MatcherKind::launch_fact) continue;
    INFO(rule.id);
    Rule on = rule;
    on.enabled = true;
    const auto fires = [&](const std::string& text) {
      const auto found = lint_source("example.cu", text, std::span(&on, 1));
      return !found.empty();
    };
    CHECK(fires(rule.bad));
    CHECK_FALSE(fires(rule.good));
  }
}

TEST_CASE("lint: every finding on the fixtures is one line under 160 characters, and so is its note") {
  static const RuleSet rules = all_rules_on();
  for (const auto& entry : std::filesystem::directory_iterator(std::string(KF_SOURCE_DIR) + "/fixtures/lint")) {
    if (entry.path().extension() != ".cu") continue;
    const std::string name = entry.path().filename().string();
    const std::string text = read_fixture(name);
    for (const auto& d : lint_source(name, text, rules.rules())) {
      INFO(name << ":" << d.line << " [" << d.rule->id << "] " << d.message);
      CHECK(d.message.size() < 160);
      CHECK(d.message.find('\n') == std::string::npos);
      CHECK(d.notes.size() <= 1);
      for (const auto& note : d.notes) CHECK(note.size() < 160);
    }
  }
  for (const auto& rule : rules.rules()) {  // the facts' rules, which have no fixture
    INFO(rule.id);
    CHECK(rule_description(rule).size() < 160);
  }
}
