// SPDX-License-Identifier: Apache-2.0
// eval through the Forecaster seam with a scripted forecaster: no endpoint, no NVRTC. The LLM
// path through cli::run against a loopback endpoint is tests/cli/eval_command_test.cpp.
#include "eval/evaluation.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>

#include <catch2/catch.hpp>

#include "forecasters/forecast_entry.hpp"
#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::eval;
using forecast::BinDistribution;
using forecast::SpeedupBin;
using kforecast::testing::TempDir;

namespace {

// Forecasts the first kernel as all mass on bin 5 and fails every other one, as an endpoint that
// times out would.
class FirstOnlyForecaster final : public forecasters::Forecaster {
 public:
  std::string_view name() const override { return "scripted"; }
  Result<forecasters::ForecastRun> forecast(std::span<const forecasters::ForecastRequest> requests) const override {
    forecasters::ForecastRun run;
    for (std::size_t i = 0; i < requests.size(); ++i) {
      forecasters::KernelForecast kernel;
      if (i == 0)
        kernel.forecast = forecasters::forecast_entry("scripted", "one-hot", BinDistribution::one_hot(SpeedupBin::minor_speedup),
                                               0.02, "");
      else
        kernel.failure_note = "the endpoint timed out";
      run.kernels.push_back(std::move(kernel));
    }
    run.notes.push_back("scripted forecaster");
    return run;
  }
};

constexpr std::string_view dataset =
    R"({"family": "gemv", "reference": {"source": "__global__ void a() {}", "kernel": "a"}, "candidate": {"source": "__global__ void b() {}", "kernel": "b"}, "speedup": 1.05}
{"family": "softmax", "reference": {"source": "__global__ void a() {}", "kernel": "a"}, "candidate": {"source": "__global__ void b() {}", "kernel": "b"}, "speedup": 0.5}
)";

EvalRun run_of(std::size_t rows) {
  return {"pairs.jsonl", "llm", "", CrossValidation::none, {{0.2, 0.5}, 0.02}, rows, {}};
}

}  // namespace

TEST_CASE("eval: a forecaster's failed kernel is scored as the uniform distribution, and counted") {
  const auto pairs = embedded::parse_labelled_pairs(dataset, "pairs.jsonl");
  REQUIRE(pairs);
  auto evaluation = evaluate_with(FirstOnlyForecaster{}, *pairs, run_of(pairs->size()), {});
  REQUIRE(evaluation);
  CHECK(evaluation->run.model == "scripted forecaster");
  REQUIRE(evaluation->rows.size() == 2);
  CHECK(evaluation->rows[0].forecast.predicted_bin() == SpeedupBin::minor_speedup);
  CHECK(evaluation->rows[0].notes.empty());
  CHECK(evaluation->rows[1].forecast.probabilities() == BinDistribution::uniform().probabilities());
  CHECK(evaluation->rows[1].notes ==
        std::vector<std::string>{"the endpoint timed out; scored as the uniform distribution"});
  CHECK(evaluation->run.notes ==
        std::vector<std::string>{"1 pair without an LLM forecast: scored as the uniform distribution, and counted"});
  REQUIRE(evaluation->groups.size() == 3);  // two families, then overall
  CHECK(evaluation->groups.back().name == "overall");
  CHECK(evaluation->groups.back().forecaster.metrics.n == 2);

  SECTION("saving the predictions writes one line per row and says so in the notes") {
    TempDir dir;
    const auto path = dir.path() / "predictions.jsonl";
    REQUIRE(save_predictions(path, *evaluation));
    std::ifstream in(path);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    CHECK(std::count(text.begin(), text.end(), '\n') == 2);
    CHECK(evaluation->run.notes.back() == "predictions (2 lines) written to " + path.string());
  }
}
