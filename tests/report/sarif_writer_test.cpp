// SPDX-License-Identifier: Apache-2.0
// SARIF: the golden file, and the structure code scanning reads, checked by parsing it.
#include <simdjson.h>

#include <catch2/catch.hpp>
#include <sstream>

#include "report_samples.hpp"

using namespace kforecast::report;

namespace {
simdjson::dom::element parse(simdjson::dom::parser& parser, const std::string& text) {
  simdjson::dom::element root;
  INFO(text);
  REQUIRE(parser.parse(text).get(root) == simdjson::SUCCESS);
  return root;
}
std::string_view text_at(const simdjson::dom::element& element, std::string_view pointer) {
  std::string_view text;
  INFO(pointer);
  REQUIRE(element.at_pointer(pointer).get_string().get(text) == simdjson::SUCCESS);
  return text;
}
}  // namespace

TEST_CASE("report: SARIF golden file") {
  std::ostringstream out;
  make_sarif_writer(out)->write(sample_report());
  check_golden(out.str(), "sample.sarif");
}

TEST_CASE("report: SARIF has a result per failing or warning kernel, on its line") {
  Report report = sample_report();
  report.kernels[0].verdict = KernelVerdict::fail;  // identical code cannot fail; a measured one can
  report.kernels[0].decision = Decision::measured;
  std::ostringstream out;
  make_sarif_writer(out)->write(report);
  simdjson::dom::parser parser;
  const auto root = parse(parser, out.str());
  CHECK(text_at(root, "/version") == "2.1.0");
  CHECK(text_at(root, "/runs/0/tool/driver/name") == "kforecast");
  simdjson::dom::array results;
  REQUIRE(root.at_pointer("/runs/0/results").get_array().get(results) == simdjson::SUCCESS);
  CHECK(results.size() == 3);  // the regression and two unverified kernels; the removed one passes
  CHECK(text_at(root, "/runs/0/results/0/ruleId") == "kforecast/regression");
  CHECK(text_at(root, "/runs/0/results/0/level") == "error");
  CHECK(text_at(root, "/runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri") == "src/gemm.cu");
  int64_t line = 0;
  REQUIRE(root.at_pointer("/runs/0/results/0/locations/0/physicalLocation/region/startLine").get(line) ==
          simdjson::SUCCESS);
  CHECK(line == 42);
  CHECK(text_at(root, "/runs/0/results/1/ruleId") == "kforecast/unverified");
  CHECK(text_at(root, "/runs/0/results/1/level") == "warning");
  // A hostile kernel name stays a string.
  CHECK(text_at(root, "/runs/0/results/2/message/text").find("evil|`name`<b>@team\"\\") != std::string_view::npos);
  // Every rule a result names is declared by the driver.
  simdjson::dom::array rules;
  REQUIRE(root.at_pointer("/runs/0/tool/driver/rules").get_array().get(rules) == simdjson::SUCCESS);
  for (auto result : results) {
    std::string_view rule_id;
    REQUIRE(result["ruleId"].get_string().get(rule_id) == simdjson::SUCCESS);
    bool declared = false;
    for (auto rule : rules) declared |= rule["id"].get_string().value_unsafe() == rule_id;
    CHECK(declared);
  }
}

TEST_CASE("report: SARIF for a clean report has no results and is valid") {
  Report clean{"0.1.0", "a", "b", GateVerdict::pass, {}, {}};
  clean.kernels.push_back({"k", "k.cu", 1, Change::modified, Decision::identical_code, KernelVerdict::pass, {}});
  std::ostringstream out;
  make_sarif_writer(out)->write(clean);
  simdjson::dom::parser parser;
  const auto root = parse(parser, out.str());
  simdjson::dom::array results;
  REQUIRE(root.at_pointer("/runs/0/results").get_array().get(results) == simdjson::SUCCESS);
  CHECK(results.size() == 0);
}

TEST_CASE("report: SARIF rules for measured kernels follow the measurement") {
  std::ostringstream out;
  make_sarif_writer(out)->write(measured_report());
  simdjson::dom::parser parser;
  const auto root = parse(parser, out.str());
  // faster_k passes and leaves no result; then slower_k, wrong_k, unsure_k, nospec_k.
  CHECK(text_at(root, "/runs/0/results/0/ruleId") == "kforecast/regression");
  CHECK(text_at(root, "/runs/0/results/0/level") == "error");
  CHECK(text_at(root, "/runs/0/results/1/ruleId") == "kforecast/failed");
  CHECK(text_at(root, "/runs/0/results/2/ruleId") == "kforecast/unverified");
  CHECK(text_at(root, "/runs/0/results/2/level") == "warning");
  CHECK(text_at(root, "/runs/0/results/3/ruleId") == "kforecast/unverified");
  simdjson::dom::array results;
  REQUIRE(root.at_pointer("/runs/0/results").get_array().get(results) == simdjson::SUCCESS);
  CHECK(results.size() == 4);
}
