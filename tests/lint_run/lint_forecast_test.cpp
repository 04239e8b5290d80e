// SPDX-License-Identifier: Apache-2.0
// The lint's forecast through the Forecaster seam: a scripted forecaster stands in for the
// embedded one, so the test reads what the lint makes of each answer.

#include "lint_run/lint_forecast.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace kforecast;
using Catch::Matchers::Contains;

namespace {

// Answers every kernel with a fixed forecast, except `silent` (no forecast, a failure note);
// `broken` fails the whole run before any kernel.
class ScriptedForecaster final : public forecasters::Forecaster {
 public:
  double p_regression = 0.1;
  std::string silent;
  bool broken = false;
  mutable std::vector<std::string> asked;

  std::string_view name() const override { return "scripted"; }

  Result<forecasters::ForecastRun> forecast(std::span<const forecasters::ForecastRequest> requests) const override {
    if (broken) return usage_error("scripted forecaster is broken");
    forecasters::ForecastRun run;
    for (const auto& request : requests) {
      asked.push_back(request.candidate.kernel);
      forecasters::KernelForecast kernel;
      if (request.candidate.kernel == silent) {
        kernel.failure_note = "scripted: no forecast for " + silent;
      } else {
        kernel.forecast.emplace();
        kernel.forecast->model = "scripted-1";
        kernel.forecast->bin = 3;
        kernel.forecast->bin_label = "slowdown";
        kernel.forecast->p_regression = p_regression;
        kernel.forecast->confidence = 0.5;
        kernel.forecast->rationale = "first reason\n\nsecond reason";
      }
      run.kernels.push_back(std::move(kernel));
    }
    return run;
  }
};

change::PrSources two_kernels_changed() {
  change::PrSources sources;
  sources.base_files["k.cu"] = "__global__ void a(float* x) { x[0] = 1; }\n__global__ void b(float* x) { x[0] = 2; }\n";
  sources.head_files["k.cu"] =
      "__global__ void a(float* x) { x[0] = 3; }\n__global__ void b(float* x) { x[0] = 4; }\n"
      "__global__ void c(float* x) { x[0] = 5; }\n";
  sources.touched.insert("k.cu");
  return sources;
}

}  // namespace

TEST_CASE("lint run: the lint forecasts changed kernels through the Forecaster it is given") {
  ScriptedForecaster forecaster;
  const std::map<std::string, std::string, std::less<>> shown{{"k.cu", "src/k.cu"}};
  const lint_run::LintForecastSettings settings{0.8, "H100", ""};

  SECTION("each kernel present at both revisions is asked about; a new one gets a note") {
    auto result = lint_run::forecast_changed_kernels(two_kernels_changed(), shown, settings, forecaster);
    REQUIRE(result.has_value());
    CHECK(forecaster.asked == std::vector<std::string>{"a", "b"});
    REQUIRE(result->diagnostics.size() == 2);
    const auto& first = result->diagnostics.front();
    CHECK(first.path == "src/k.cu");
    CHECK(first.line == 1);
    CHECK(first.severity == lint::Severity::note);
    CHECK_THAT(first.message, Contains("P(regression) 0.10"));
    CHECK(first.notes ==
          std::vector<std::string>{"forecast: model scripted-1", "forecast: first reason", "forecast: second reason"});
    CHECK_THAT(result->notes.front(), Contains("c is new"));
  }
  SECTION("a likely regression is an error") {
    forecaster.p_regression = 0.9;
    auto result = lint_run::forecast_changed_kernels(two_kernels_changed(), shown, settings, forecaster);
    REQUIRE(result.has_value());
    REQUIRE(!result->diagnostics.empty());
    CHECK(result->diagnostics.front().severity == lint::Severity::error);
    CHECK_THAT(result->diagnostics.front().message, Contains("a regression is likely"));
  }
  SECTION("a kernel left without a forecast says why; a failed run is an error") {
    forecaster.silent = "b";
    auto result = lint_run::forecast_changed_kernels(two_kernels_changed(), shown, settings, forecaster);
    REQUIRE(result.has_value());
    CHECK(result->diagnostics.size() == 1);
    CHECK(std::ranges::find(result->notes, "scripted: no forecast for b") != result->notes.end());
    forecaster.broken = true;
    CHECK_FALSE(lint_run::forecast_changed_kernels(two_kernels_changed(), shown, settings, forecaster).has_value());
  }
}

TEST_CASE("gate: the lint's own forecaster is the embedded one") {
  CHECK(lint_run::lint_forecaster("H100", 0.02).name() == "embedded");
}
