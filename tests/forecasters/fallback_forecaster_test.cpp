// SPDX-License-Identifier: Apache-2.0
#include "forecasters/fallback_forecaster.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

using kforecast::Result;
using kforecast::forecasters::FallbackForecaster;
using kforecast::forecasters::Forecaster;
using kforecast::forecasters::ForecastRequest;
using kforecast::forecasters::ForecastRun;
using kforecast::forecasters::KernelForecast;

namespace {

// A forecaster that answers from a script: a kernel whose candidate's name is in `failing` gets
// no forecast; every other gets one labelled with this forecaster's name. It records the
// candidate names it was asked about.
class ScriptedForecaster final : public Forecaster {
 public:
  ScriptedForecaster(std::string name, std::vector<std::string> failing, std::vector<std::string>* asked)
      : m_name(std::move(name)), m_failing(std::move(failing)), m_asked(asked) {}

  std::string_view name() const override { return m_name; }

  Result<ForecastRun> forecast(std::span<const ForecastRequest> requests) const override {
    if (misconfigured) return kforecast::usage_error(m_name + " is misconfigured");
    ForecastRun run;
    for (const auto& request : requests) {
      m_asked->push_back(request.candidate.kernel);
      KernelForecast kernel;
      kernel.notes.push_back(m_name + " read " + request.candidate.kernel);
      if (std::ranges::find(m_failing, request.candidate.kernel) != m_failing.end()) {
        kernel.failure = m_name + " failed for " + request.candidate.kernel;
        kernel.failure_note = "no " + m_name + " forecast";
      } else {
        kernel.forecast.emplace();
        kernel.forecast->forecaster = m_name;
        kernel.forecast->model = m_name + "-model";
      }
      run.kernels.push_back(std::move(kernel));
    }
    if (!requests.empty()) run.notes.push_back(m_name + " ran");
    return run;
  }

  bool misconfigured = false;  // forecast() fails before any kernel

 private:
  std::string m_name;
  std::vector<std::string> m_failing;
  std::vector<std::string>* m_asked;
};

std::vector<ForecastRequest> requests_for(std::initializer_list<const char*> names) {
  std::vector<ForecastRequest> requests;
  for (const char* name : names) requests.push_back({{"ref", name, {}}, {"cand", name, {}}, {}});
  return requests;
}

}  // namespace

TEST_CASE("gate: a fallback asks the stand-in only for the kernels the primary gave no forecast") {
  std::vector<std::string> primary_asked, stand_in_asked;
  auto primary = std::make_unique<ScriptedForecaster>("llm", std::vector<std::string>{"b", "d"}, &primary_asked);
  auto stand_in = std::make_unique<ScriptedForecaster>("embedded", std::vector<std::string>{}, &stand_in_asked);
  const FallbackForecaster fallback(std::move(primary), std::move(stand_in));
  CHECK(fallback.name() == "llm");

  const auto requests = requests_for({"a", "b", "c", "d"});
  auto run = fallback.forecast(requests);
  REQUIRE(run);
  CHECK(primary_asked == std::vector<std::string>{"a", "b", "c", "d"});
  CHECK(stand_in_asked == std::vector<std::string>{"b", "d"});
  REQUIRE(run->kernels.size() == 4);

  SECTION("a kernel the primary forecast keeps its forecast, unlabelled") {
    const auto& a = run->kernels[0];
    REQUIRE(a.forecast);
    CHECK(a.forecast->forecaster == "llm");
    CHECK(a.forecast->fallback_for.empty());
    CHECK(a.forecast->fallback_reason.empty());
    CHECK(a.notes == std::vector<std::string>{"llm read a"});
  }
  SECTION("a failed kernel gets the stand-in's forecast, labelled with the primary's failure") {
    const auto& b = run->kernels[1];
    REQUIRE(b.forecast);
    CHECK(b.forecast->forecaster == "embedded");
    CHECK(b.forecast->model == "embedded-model");
    CHECK(b.forecast->fallback_for == "llm");
    CHECK(b.forecast->fallback_reason == "llm failed for b");
    // The primary's failure stays, so the report can say what failed and what stands in.
    CHECK(b.failure == "llm failed for b");
    CHECK(b.failure_note == "no llm forecast");
    CHECK(b.notes == std::vector<std::string>{"llm read b", "embedded read b"});
    CHECK(run->kernels[3].forecast->fallback_reason == "llm failed for d");
  }
  SECTION("the run notes are the primary's, then the stand-in's") {
    CHECK(run->notes == std::vector<std::string>{"llm ran", "embedded ran"});
  }
}

TEST_CASE("gate: a fallback whose primary forecasts everything never asks the stand-in") {
  std::vector<std::string> primary_asked, stand_in_asked;
  const FallbackForecaster fallback(
      std::make_unique<ScriptedForecaster>("llm", std::vector<std::string>{}, &primary_asked),
      std::make_unique<ScriptedForecaster>("embedded", std::vector<std::string>{}, &stand_in_asked));
  const auto requests = requests_for({"a", "b"});
  auto run = fallback.forecast(requests);
  REQUIRE(run);
  CHECK(stand_in_asked.empty());
  CHECK(run->notes == std::vector<std::string>{"llm ran"});
  for (const auto& kernel : run->kernels) {
    REQUIRE(kernel.forecast);
    CHECK(kernel.forecast->fallback_for.empty());
  }

  SECTION("nor for no kernels at all") {
    auto empty = fallback.forecast({});
    REQUIRE(empty);
    CHECK(empty->kernels.empty());
    CHECK(empty->notes.empty());
    CHECK(stand_in_asked.empty());
  }
}

TEST_CASE("gate: a kernel the stand-in cannot forecast either stays without a forecast") {
  std::vector<std::string> primary_asked, stand_in_asked;
  const FallbackForecaster fallback(
      std::make_unique<ScriptedForecaster>("llm", std::vector<std::string>{"a"}, &primary_asked),
      std::make_unique<ScriptedForecaster>("embedded", std::vector<std::string>{"a"}, &stand_in_asked));
  const auto requests = requests_for({"a"});
  auto run = fallback.forecast(requests);
  REQUIRE(run);
  REQUIRE(run->kernels.size() == 1);
  CHECK_FALSE(run->kernels[0].forecast);
  CHECK(run->kernels[0].failure == "llm failed for a");  // the primary's, which the report names
  CHECK(run->kernels[0].failure_note == "no llm forecast");
}

TEST_CASE("gate: a fallback passes on either forecaster's error") {
  std::vector<std::string> primary_asked, stand_in_asked;
  auto primary = std::make_unique<ScriptedForecaster>("llm", std::vector<std::string>{"a"}, &primary_asked);
  auto stand_in = std::make_unique<ScriptedForecaster>("embedded", std::vector<std::string>{}, &stand_in_asked);
  ScriptedForecaster* primary_fake = primary.get();
  ScriptedForecaster* stand_in_fake = stand_in.get();
  const FallbackForecaster fallback(std::move(primary), std::move(stand_in));
  const auto requests = requests_for({"a"});

  SECTION("the primary's, before the stand-in is asked") {
    primary_fake->misconfigured = true;
    auto run = fallback.forecast(requests);
    REQUIRE_FALSE(run);
    CHECK(run.error().message == "llm is misconfigured");
    CHECK(stand_in_asked.empty());
  }
  SECTION("the stand-in's") {
    stand_in_fake->misconfigured = true;
    auto run = fallback.forecast(requests);
    REQUIRE_FALSE(run);
    CHECK(run.error().message == "embedded is misconfigured");
  }
}
