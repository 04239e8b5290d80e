// SPDX-License-Identifier: Apache-2.0
// Golden-file tests: the exact JSON and Markdown for a report with every change kind and
// decision, and names a hostile pull request could choose. To update after an intended change:
// KF_UPDATE_GOLDEN=1 build/release/tests/report/kf_report_tests
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>

#include <catch2/catch.hpp>

#include "report/writer.hpp"

using namespace kforecast::report;

namespace {

Report sample() {
  Report report{"0.1.0",
                "1111111111111111111111111111111111111111",
                "2222222222222222222222222222222222222222",
                GateVerdict::pass,
                {},
                {"base and head from --base/--head"}};
  report.kernels.push_back({"sgemm_tiled<64, 64, 8>",
                            "src/gemm.cu",
                            42,
                            Change::modified,
                            Decision::identical_code,
                            KernelVerdict::pass,
                            {"machine code identical for sm_90"}});
  report.kernels.push_back({"softmax",
                            "src/softmax.cu",
                            7,
                            Change::added,
                            Decision::forecast_only,
                            KernelVerdict::warn,
                            {"no forecaster built yet"}});
  report.kernels.push_back({"evil|`name`<b>@team\"\\",
                            "dir with space/x.cu",
                            1,
                            Change::renamed,
                            Decision::forecast_only,
                            KernelVerdict::warn,
                            {"renamed from old_name", "line\nbreak <script> @team"}});
  report.kernels.push_back({"gone", "src/old.cu", 3, Change::removed, Decision::skipped, KernelVerdict::pass, {}});
  return report;
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void check_golden(const std::string& actual, const std::string& name) {
  const std::string path = std::string(KF_SOURCE_DIR) + "/fixtures/report/" + name;
  if (std::getenv("KF_UPDATE_GOLDEN") != nullptr) std::ofstream(path, std::ios::binary) << actual;
  INFO("golden file " << path);
  CHECK(actual == read(path));
}

}  // namespace

TEST_CASE("report: JSON golden file") {
  std::ostringstream out;
  make_json_writer(out)->write(sample());
  check_golden(out.str(), "sample.json");
  CHECK(out.str().find("\"forecast\": null") != std::string::npos);
  CHECK(out.str().find(R"("evil|`name`<b>@team\"\\")") != std::string::npos);
}

TEST_CASE("report: Markdown golden file") {
  std::ostringstream out;
  make_markdown_writer(out)->write(sample());
  check_golden(out.str(), "sample.md");
  CHECK(out.str().find("| `evil\\|'name'<b>@team\"\\` |") != std::string::npos);  // literal in a code span
  CHECK(out.str().find("`sgemm_tiled<64, 64, 8>`") != std::string::npos);
}

TEST_CASE("report: an empty report") {
  Report empty{"0.1.0", "a", "b", GateVerdict::pass, {}, {}};
  std::ostringstream json, markdown;
  make_json_writer(json)->write(empty);
  make_markdown_writer(markdown)->write(empty);
  CHECK(json.str().find("\"kernels\": [],") != std::string::npos);
  CHECK(json.str().find("\"notes\": []") != std::string::npos);
  CHECK(markdown.str().find("no CUDA kernel changed") != std::string::npos);
}

TEST_CASE("report: the multiplexer writes every format in one pass") {
  std::ostringstream json, markdown;
  MultiWriter both;
  both.add(make_json_writer(json));
  both.add(make_markdown_writer(markdown));
  both.write(sample());
  std::ostringstream json_alone, markdown_alone;
  make_json_writer(json_alone)->write(sample());
  make_markdown_writer(markdown_alone)->write(sample());
  CHECK(json.str() == json_alone.str());
  CHECK(markdown.str() == markdown_alone.str());
}

TEST_CASE("report: notes outside code spans cannot inject HTML or mentions") {
  std::ostringstream out;
  make_markdown_writer(out)->write(sample());
  CHECK(out.str().find("<script>") == std::string::npos);
  CHECK(out.str().find("line break &lt;script&gt; @\u200bteam") != std::string::npos);
}
