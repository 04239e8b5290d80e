// SPDX-License-Identifier: Apache-2.0
// SARIF: the golden file, and the structure code scanning reads, checked by parsing it.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>

#include "report_samples.hpp"

using namespace kforecast::report;
using nlohmann::json;

namespace {
json parse(const std::string& text) {
  INFO(text);
  json root = json::parse(text, nullptr, false);
  REQUIRE(!root.is_discarded());
  return root;
}
const json& at(const json& root, const char* pointer) {
  INFO(pointer);
  REQUIRE(root.contains(json::json_pointer(pointer)));
  return root.at(json::json_pointer(pointer));
}
std::string text_at(const json& root, const char* pointer) {
  const json& value = at(root, pointer);
  INFO(pointer);
  REQUIRE(value.is_string());
  return value.get<std::string>();
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
  const json root = parse(out.str());
  CHECK(text_at(root, "/version") == "2.1.0");
  CHECK(text_at(root, "/runs/0/tool/driver/name") == "kforecast");
  const json& results = at(root, "/runs/0/results");
  REQUIRE(results.is_array());
  CHECK(results.size() == 3);  // the regression and two unverified kernels; the removed one passes
  CHECK(text_at(root, "/runs/0/results/0/ruleId") == "kforecast/regression");
  CHECK(text_at(root, "/runs/0/results/0/level") == "error");
  CHECK(text_at(root, "/runs/0/results/0/locations/0/physicalLocation/artifactLocation/uri") == "src/gemm.cu");
  CHECK(at(root, "/runs/0/results/0/locations/0/physicalLocation/region/startLine") == 42);
  CHECK(text_at(root, "/runs/0/results/1/ruleId") == "kforecast/unverified");
  CHECK(text_at(root, "/runs/0/results/1/level") == "warning");
  // A hostile kernel name stays a string.
  CHECK(text_at(root, "/runs/0/results/2/message/text").find("evil|`name`<b>@team\"\\") != std::string::npos);
  // Every rule a result names is declared by the driver.
  const json& rules = at(root, "/runs/0/tool/driver/rules");
  REQUIRE(rules.is_array());
  for (const json& result : results) {
    REQUIRE(result.contains("ruleId"));
    const json& rule_id = result["ruleId"];
    bool declared = false;
    for (const json& rule : rules) declared |= rule.value("id", "") == rule_id;
    CHECK(declared);
  }
}

TEST_CASE("report: SARIF for a clean report has no results and is valid") {
  Report clean{"0.1.0", "a", "b", GateVerdict::pass, {}, {}};
  clean.kernels.push_back({"k", "k.cu", 1, Change::modified, Decision::identical_code, KernelVerdict::pass, {}});
  std::ostringstream out;
  make_sarif_writer(out)->write(clean);
  const json root = parse(out.str());
  const json& results = at(root, "/runs/0/results");
  REQUIRE(results.is_array());
  CHECK(results.size() == 0);
}

TEST_CASE("report: SARIF rules for measured kernels follow the measurement") {
  std::ostringstream out;
  make_sarif_writer(out)->write(measured_report());
  const json root = parse(out.str());
  // faster_k passes and leaves no result; then slower_k, wrong_k, unsure_k, nospec_k.
  CHECK(text_at(root, "/runs/0/results/0/ruleId") == "kforecast/regression");
  CHECK(text_at(root, "/runs/0/results/0/level") == "error");
  CHECK(text_at(root, "/runs/0/results/1/ruleId") == "kforecast/failed");
  CHECK(text_at(root, "/runs/0/results/2/ruleId") == "kforecast/unverified");
  CHECK(text_at(root, "/runs/0/results/2/level") == "warning");
  CHECK(text_at(root, "/runs/0/results/3/ruleId") == "kforecast/unverified");
  const json& results = at(root, "/runs/0/results");
  REQUIRE(results.is_array());
  CHECK(results.size() == 4);
}
