// SPDX-License-Identifier: Apache-2.0
#include "forecasters/embedded_forecaster.hpp"

#include <array>

#include <catch2/catch.hpp>

#include "embedded/ordinal_model.hpp"
#include "forecast/bin_distribution.hpp"

using kforecast::forecasters::EmbeddedForecaster;
using kforecast::forecasters::ForecastRequest;

namespace {

constexpr const char* strided = "__global__ void k(float* a) { a[threadIdx.x * 32] = 1.0f; }\n";
constexpr const char* coalesced = "__global__ void k(float* a) { a[threadIdx.x] = 1.0f; }\n";

// No compiler: features come from the source alone, as in `kforecast lint`.
EmbeddedForecaster forecaster(double tolerance = 0.02) { return EmbeddedForecaster({nullptr, "sm_90", {}}, tolerance); }

}  // namespace

TEST_CASE("gate: the embedded forecaster forecasts every request, in order, and never fails") {
  int extras_built = 0;
  std::vector<ForecastRequest> requests{{{strided, "k", {}}, {coalesced, "k", {}}, {}},
                                        {{coalesced, "k", {}}, {strided, "k", {}}, {}},
                                        {{strided, "missing", {}}, {strided, "missing", {}}, {}}};
  for (auto& request : requests)
    request.prompt_extras = [&] {
      ++extras_built;
      return kforecast::forecasters::PromptExtras{};
    };
  const auto embedded = forecaster();
  CHECK(embedded.name() == "embedded");
  auto run = embedded.forecast(requests);
  REQUIRE(run);
  REQUIRE(run->kernels.size() == 3);
  CHECK(run->notes.empty());
  CHECK(extras_built == 0);  // a prompt's extras are the LLM's; building them would cost compiles

  const auto& model = kforecast::embedded::default_model();
  for (const auto& kernel : run->kernels) {
    REQUIRE(kernel.forecast);
    CHECK(kernel.failure.empty());
    CHECK(kernel.failure_note.empty());
    CHECK(kernel.forecast->forecaster == "embedded");
    CHECK(kernel.forecast->model.starts_with("ordinal logistic, "));
    CHECK(kernel.forecast->fallback_for.empty());
    CHECK(kernel.forecast->bin >= 1);
    CHECK(kernel.forecast->bin <= 8);
    CHECK_FALSE(kernel.forecast->rationale.empty());
    double sum = 0;
    for (double p : kernel.forecast->probabilities) sum += p;
    CHECK(sum == Approx(1.0));
  }
  if (model.status == kforecast::embedded::ModelStatus::trained)
    CHECK(run->kernels[0].forecast->model ==
          "ordinal logistic, trained on " + std::to_string(model.training_pairs) + " pairs");
}

TEST_CASE("gate: the embedded forecaster's P(regression) is at the tolerance it was given") {
  const std::vector<ForecastRequest> requests{{{strided, "k", {}}, {coalesced, "k", {}}, {}}};
  auto tight = forecaster(0.0).forecast(requests);
  auto loose = forecaster(0.5).forecast(requests);
  REQUIRE(tight);
  REQUIRE(loose);
  const auto& forecast = *tight->kernels[0].forecast;
  const auto distribution = kforecast::forecast::BinDistribution::from_raw(forecast.probabilities).value();
  CHECK(forecast.p_regression == Approx(distribution.p_regression(0.0)));
  CHECK(loose->kernels[0].forecast->p_regression == Approx(distribution.p_regression(0.5)));
  CHECK(loose->kernels[0].forecast->probabilities == forecast.probabilities);
}

TEST_CASE("gate: the embedded forecaster given no requests gives an empty run") {
  auto run = forecaster().forecast({});
  REQUIRE(run);
  CHECK(run->kernels.empty());
  CHECK(run->notes.empty());
}

TEST_CASE("gate: a kernel whose text reads the same gets a wide forecast no policy trusts, saying what changed") {
  ForecastRequest blind{{coalesced, "k", {}}, {coalesced, "k", {}}, {}};
  blind.text_unchanged = true;
  blind.changes = {"launch configuration at run.cu:2 changed", "machine code differs for sm_90: registers 8 → 10"};
  ForecastRequest seen{{coalesced, "k", {}}, {coalesced, "k", {}}, {}};  // the same texts, not marked
  auto run = forecaster().forecast(std::vector{blind, seen});
  REQUIRE(run);
  REQUIRE(run->kernels[0].forecast);
  const auto& wide = *run->kernels[0].forecast;
  CHECK_THAT(wide.rationale, Catch::Contains("reads the same at both revisions") &&
                                 Catch::Contains("launch configuration at run.cu:2 changed; machine code differs"));
  // Far from what the default policy trusts (confidence >= 0.5 and P(regression) < 0.2), and unlike
  // the model's own answer for identical texts.
  CHECK(wide.confidence < 0.3);
  CHECK(wide.p_regression > 0.4);
  CHECK(wide.bin == 4);
  REQUIRE(run->kernels[1].forecast);
  CHECK(run->kernels[1].forecast->probabilities != wide.probabilities);
}

TEST_CASE("gate: without its launch a kernel's forecast is widened, says so, and is never surer") {
  const kforecast::embedded::LaunchGeometry launch{{4096, 1, 1}, {256, 1, 1}, 0};
  ForecastRequest known{{strided, "k", launch}, {coalesced, "k", launch}, {}};
  ForecastRequest unknown{{strided, "k", {}}, {coalesced, "k", {}}, {}};
  auto run = forecaster().forecast(std::vector{known, unknown});
  REQUIRE(run);
  REQUIRE(run->kernels[0].forecast);
  REQUIRE(run->kernels[1].forecast);
  const auto& with = *run->kernels[0].forecast;
  const auto& without = *run->kernels[1].forecast;
  CHECK_THAT(without.rationale, Catch::Contains("sizes unknown (no launch spec or capture gives its launch): widened"));
  CHECK_THAT(with.rationale, !Catch::Contains("sizes unknown"));
  CHECK(without.confidence < 0.5);  // at most half of one bin's mass, and an eighth of the other half
  // Widening never makes a forecast surer: half its mass spread evenly.
  using kforecast::forecast::BinDistribution;
  for (const auto& distribution :
       {BinDistribution::one_hot(kforecast::forecast::SpeedupBin{5}), BinDistribution::uniform(),
        *BinDistribution::from_raw(std::array{0.01, 0.02, 0.07, 0.3, 0.4, 0.1, 0.05, 0.05})}) {
    const auto wide = kforecast::forecasters::widened(distribution);
    CHECK(wide.max_probability() == Approx(0.5 * distribution.max_probability() + 0.0625));
    CHECK(wide.max_probability() <= distribution.max_probability() + 1e-12);
  }
}
