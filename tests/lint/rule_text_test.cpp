// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include "lint/rule_set.hpp"
#include "lint/rule_text.hpp"

using namespace kforecast::lint;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

TEST_CASE("lint: the rule table pads ids, says which rules are opt-in and their precision, and how to read more") {
  Rule short_id{"ab", Severity::error, "first", "", "", "", "", {}, "here", true, "97% (116/119)"};
  Rule long_id{"abcdef", Severity::note, "second", "", "", "", "", {}, "here", false, "38% (70/186)"};
  Rule unmeasured{"abc", Severity::warning, "third", "", "", "", "", {}, "here"};
  CHECK(rule_table(std::vector<Rule>{short_id, long_id, unmeasured}) ==
        "ab      error    on      97% (116/119)  first\n"
        "abcdef  note     opt-in  38% (70/186)   second\n"
        "abc     warning  on      -              third\n"
        "\nPrecision: the share of a rule's findings judged right on real kernels (benchmarks/lint-judged); '-': not "
        "measured.\n"
        "An opt-in rule runs where a rule file in lint.rules_path turns it on: [[rule]] id = \"ID\" enabled = true.\n"
        "'kforecast rules ID' explains one; silence one on a line with '// kforecast: ignore ID'.\n");
  // Without an opt-in rule the table does not explain turning one on.
  CHECK(rule_table(std::vector<Rule>{short_id}).find("opt-in") == std::string::npos);
}

TEST_CASE("lint: a rule explained, with its examples indented") {
  const Rule rule{"double-literal",
                  Severity::warning,
                  "a double literal",
                  "costs {match}",
                  "https://guide",
                  "\n\nx = 1.0;\ny = 2.0;",
                  "x = 1.0f;",
                  {},
                  "rules/precision.toml:3",
                  true,
                  "95% (456/480)",
                  "write {fix} instead"};
  const std::string text = rule_explanation(rule);
  CHECK_THAT(text, StartsWith("double-literal (warning)\n  a double literal\n\n"));
  CHECK_THAT(text, Contains("  costs ...\n  write ... instead\n\n"));
  CHECK_THAT(text, Contains("  Guide: https://guide\n  Defined at: rules/precision.toml:3\n"));
  CHECK_THAT(text, Contains("  Precision on real kernels (benchmarks/lint-judged): 95% (456/480)\n"));
  CHECK_THAT(text, Contains("\nFires on:\n    x = 1.0;\n    y = 2.0;\n"));
  CHECK_THAT(text, Contains("\nCorrected:\n    x = 1.0f;\n"));
  Rule bare = rule;
  bare.bad.clear();
  bare.good.clear();
  CHECK(rule_explanation(bare).find("Fires on") == std::string::npos);
}
