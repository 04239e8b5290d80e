// SPDX-License-Identifier: Apache-2.0
#include "report/check_text.hpp"

#include <cmath>
#include <sstream>

#include <catch2/catch.hpp>

using namespace kforecast;
using Catch::Matchers::Contains;

TEST_CASE("cli: the distribution bar scales each bin to the most probable") {
  CHECK(report::distribution_bar({0, 0, 0, 1, 0, 0, 0, 0}) == "▁▁▁█▁▁▁▁");
  CHECK(report::distribution_bar({0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125, 0.125}) == "████████");
  CHECK(report::distribution_bar({0.05, 0.05, 0.1, 0.2, 0.4, 0.1, 0.05, 0.05}) == "▂▂▃▅█▃▂▂");
  SECTION("nothing to scale by, or not a number, draws the floor") {
    CHECK(report::distribution_bar({}) == "▁▁▁▁▁▁▁▁");
    CHECK(report::distribution_bar({std::nan(""), 0, 0, 1, 0, 0, 0, 0}) == "▁▁▁█▁▁▁▁");
  }
}

TEST_CASE("cli: check's text shows the forecast, decision and measurement") {
  report::Report report{"0.1.0", "abc", "working tree", report::GateVerdict::fail, {}, {"compared: x"}};
  report::KernelEntry entry{"sgemm",
                            "src/gemm.cu",
                            42,
                            report::Change::modified,
                            report::Decision::measured,
                            report::KernelVerdict::fail,
                            {"the kernel's own source changed"}};
  report::ForecastEntry forecast;
  forecast.forecaster = "embedded";
  forecast.bin = 3;
  forecast.bin_label = "moderate slowdown";
  forecast.probabilities = {0, 0.1, 0.6, 0.2, 0.1, 0, 0, 0};
  forecast.confidence = 0.6;
  forecast.p_regression = 0.9;
  forecast.rationale = "more shared memory";
  entry.forecast = forecast;
  entry.measurement = report::MeasurementEntry{0.125, 0.12, 0.13, 1, "regression", 10, 80, "H100", 0.5, ""};
  report.kernels.push_back(entry);
  std::ostringstream out;
  report::write_check_text(out, report);
  const std::string text = out.str();
  CHECK_THAT(text, Contains("kforecast check: fail\n"));
  CHECK_THAT(text, Contains("sgemm  src/gemm.cu:42  modified\n"));
  CHECK_THAT(text, Contains("  forecast      bin 3 moderate slowdown  [▁▂█▃▂▁▁▁]"));
  CHECK_THAT(text, Contains("  P(regression) 0.90\n"));
  CHECK_THAT(text, Contains("  confidence    0.60  (embedded)\n"));
  CHECK_THAT(text, Contains("  rationale     more shared memory\n"));
  CHECK_THAT(text, Contains("  decision      measured\n"));
  CHECK_THAT(text,
             Contains("  measured      0.125x [0.120, 0.130]: regression (10.00 us -> 80.00 us per launch, H100)"));
  CHECK_THAT(text, Contains("  verdict       fail\n"));
  CHECK_THAT(text, Contains("note: compared: x\n"));
}

TEST_CASE("cli: check's text calls a kernel with no source change unchanged, not modified") {
  report::Report report{"0.1.0", "abc", "working tree", report::GateVerdict::pass, {}, {}};
  report.kernels.push_back({"copy", "src/scale.cu", 3, report::Change::modified, report::Decision::identical_code,
                            report::KernelVerdict::pass, {"no source change from src/scale.cu at HEAD"}});
  report.kernels.push_back({"scale", "src/scale.cu", 9, report::Change::modified, report::Decision::identical_code,
                            report::KernelVerdict::pass, {"the kernel's own source changed"}});
  std::ostringstream out;
  report::write_check_text(out, report);
  CHECK_THAT(out.str(), Contains("\ncopy  src/scale.cu:3  unchanged\n"));
  CHECK_THAT(out.str(), Contains("\nscale  src/scale.cu:9  modified\n"));
}

TEST_CASE("cli: check's text quotes a compile log: no line starts with a workflow command") {
  report::Report report{"0.1.0", "abc", "working tree", report::GateVerdict::fail, {}, {"::add-mask::run\n::x"}};
  report::KernelEntry entry{"::set-output name=k::v",
                            "src/k.cu",
                            3,
                            report::Change::modified,
                            report::Decision::skipped,
                            report::KernelVerdict::fail,
                            {"the head does not compile:\n::set-output name=x::y\n  ::add-mask::hunter2\n"}};
  entry.build = "nvcc\n::error::forged";
  report::ForecastEntry forecast;
  forecast.rationale = "fine\n::warning::rationale";
  entry.forecast = forecast;
  report.kernels.push_back(entry);
  std::ostringstream out;
  report::write_check_text(out, report);
  const std::string text = out.str();
  INFO(text);
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string line = text.substr(start, end - start);
    CHECK_FALSE(line.substr(std::min(line.find_first_not_of(" \t"), line.size())).starts_with("::"));
    start = end + 1;
  }
  CHECK_THAT(text, Contains("  note          the head does not compile:\n"
                            "                | ::set-output name=x::y\n"
                            "                |   ::add-mask::hunter2\n"));
}
