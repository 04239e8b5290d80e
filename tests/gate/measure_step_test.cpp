// SPDX-License-Identifier: Apache-2.0
// The measuring step's decisions, on measurements built as values: the order (riskiest first),
// the GPU budget, the verdict each measurement gives, the footer's GPU time and the ledger line.
#include "gate/measure_step.hpp"

#include <catch2/catch.hpp>

#include "policy/ledger.hpp"
#include "support/gate_fakes.hpp"

using namespace kforecast;
using namespace kforecast::gate;
using kforecast::test::compile_by_length;
using kforecast::test::measured;
using Catch::Matchers::Contains;

namespace {

report::ForecastEntry sure_of(double p_regression, double confidence) {
  report::ForecastEntry f;
  f.forecaster = "embedded";
  f.model = "ordinal-v1";
  f.bin = 4;
  f.probabilities = {0, 0.05, 0.15, 0.4, 0.3, 0.1, 0, 0};
  f.p_regression = p_regression;
  f.confidence = confidence;
  return f;
}

report::KernelEntry entry(std::string name, std::optional<report::ForecastEntry> f) {
  report::KernelEntry e{std::move(name),
                        "src/k.cu",
                        10,
                        report::Change::modified,
                        report::Decision::forecast_only,
                        report::KernelVerdict::warn,
                        {"needs a GPU measurement (confidence 0.20 < 0.50)"}};
  e.forecast = std::move(f);
  return e;
}

// Four open cases, as the policy leaves them.
GateRun four_kernels() {
  report::Report r{"0.1.0", "base", "head", report::GateVerdict::pass, {}, {}};
  r.kernels.push_back(entry("low_risk", sure_of(0.1, 0.3)));
  r.kernels.push_back(entry("high_risk_sure", sure_of(0.6, 0.9)));
  r.kernels.push_back(entry("high_risk_unsure", sure_of(0.6, 0.2)));
  r.kernels.push_back(entry("no_forecast", std::nullopt));
  return run_of(r);
}

const std::vector<std::size_t> all_four{0, 1, 2, 3};

}  // namespace

TEST_CASE("measure step: riskiest first, a kernel without a forecast before all") {
  const auto run = four_kernels();
  CHECK(measurement_order(run.cases, all_four) == std::vector<std::size_t>{3, 2, 1, 0});
  CHECK(measurement_order(run.cases, std::vector<std::size_t>{0, 1}) == std::vector<std::size_t>{1, 0});
  SECTION("ties keep the cases' order") {
    auto tied = four_kernels();
    for (auto& c : tied.cases) c.entry.forecast = sure_of(0.5, 0.5);
    CHECK(measurement_order(tied.cases, all_four) == all_four);
  }
}

TEST_CASE("measure step: the GPU budget stops measuring, and what is left is unverified") {
  auto run = four_kernels();
  std::vector<std::size_t> asked;
  const MeasureKernel measure = [&](std::size_t index) -> Result<bench::Measurement> {
    asked.push_back(index);
    return measured(bench::Verdict::same, 1.0, 6.0);
  };
  SECTION("a budget of 10 s: two measurements of 6 s, then the budget is spent") {
    const auto outcome = measure_kernels(run.cases, all_four, {false, false, 10}, measure);
    CHECK(asked == std::vector<std::size_t>{3, 2});
    CHECK(outcome.measured == 2);
    CHECK(outcome.over_budget == 2);
    CHECK(outcome.spent_seconds == Approx(12));
    CHECK(run.cases[1].entry.decision == report::Decision::forecast_only);
    CHECK(run.cases[1].entry.verdict == report::KernelVerdict::warn);
    CHECK_THAT(run.cases[1].entry.notes.back(),
               Contains("GPU budget is spent (12.0 s used of policy.gpu_budget_seconds = 10"));
    CHECK_FALSE(any_failed(run));
  }
  SECTION("under on_unverified = fail the kernels left over fail the gate") {
    measure_kernels(run.cases, all_four, {true, false, 5}, measure);
    CHECK(asked == std::vector<std::size_t>{3});
    CHECK(run.cases[0].entry.verdict == report::KernelVerdict::fail);
    CHECK(run.cases[0].entry.unverified);  // SARIF reports it as unverified risk, not as a failed candidate
    CHECK_FALSE(run.cases[3].entry.unverified);
    CHECK_THAT(run.cases[0].entry.notes.back(), Contains("policy.on_unverified = fail"));
    CHECK(any_failed(run));
  }
  SECTION("0 is no limit") {
    const auto outcome = measure_kernels(run.cases, all_four, {false, false, 0}, measure);
    CHECK(outcome.measured == 4);
    CHECK(asked.size() == 4);
  }
}

TEST_CASE("measure step: each measured verdict gives its kernel verdict") {
  const MeasureSettings lenient{false, false, 0};
  const MeasureSettings strict_inconclusive{false, true, 0};
  auto e = entry("k", sure_of(0.6, 0.2));

  apply_measurement(e, measured(bench::Verdict::faster, 1.3, 2), lenient);
  CHECK(e.decision == report::Decision::measured);
  CHECK(e.verdict == report::KernelVerdict::pass);
  REQUIRE(e.measurement);
  CHECK(e.measurement->speedup == Approx(1.3));
  CHECK(e.measurement->ci_low == Approx(1.3 * 0.98));
  CHECK(e.measurement->bin == 5);
  CHECK(e.measurement->verdict == "faster");

  e = entry("k", sure_of(0.6, 0.2));
  apply_measurement(e, measured(bench::Verdict::same, 1.0, 2), lenient);
  CHECK(e.verdict == report::KernelVerdict::pass);

  e = entry("k", sure_of(0.6, 0.2));
  apply_measurement(e, measured(bench::Verdict::regression, 0.8, 2), lenient);
  CHECK(e.verdict == report::KernelVerdict::fail);
  CHECK(e.measurement->bin == 4);
  CHECK_THAT(e.notes.back(), Contains("measured regression on NVIDIA H100 80GB HBM3: 0.8000x"));

  e = entry("k", sure_of(0.6, 0.2));
  auto failed = bench::failed_measurement("the candidate disagrees with the reference: y[3] 2 vs 1", "H100");
  apply_measurement(e, failed, lenient);
  CHECK(e.verdict == report::KernelVerdict::fail);
  CHECK(e.measurement->speedup == 0);
  CHECK(e.measurement->verdict == "failed");
  CHECK_THAT(e.notes.back(), Contains("measurement failed on H100: the candidate disagrees with the reference"));

  auto inconclusive = measured(bench::Verdict::inconclusive, 0.99, 30);
  inconclusive.reason = "the GPU time cap (30.0 s) was reached";
  e = entry("k", sure_of(0.6, 0.2));
  apply_measurement(e, inconclusive, lenient);
  CHECK(e.verdict == report::KernelVerdict::warn);
  CHECK_THAT(e.notes.back(), Contains("inconclusive") && Contains("policy.fail_on_inconclusive = false"));
  e = entry("k", sure_of(0.6, 0.2));
  apply_measurement(e, inconclusive, strict_inconclusive);
  CHECK(e.verdict == report::KernelVerdict::fail);
}

TEST_CASE("measure step: a borderline slowdown follows policy.on_borderline, not policy.fail_on_inconclusive") {
  auto borderline = measured(bench::Verdict::inconclusive, 0.975, 2);
  borderline.reason = "borderline: the first process measured 2.6% slower, a fresh process 1.8% slower (same); the "
                      "regression was not confirmed";
  const MeasureSettings warn_borderline{false, true, 0, false};  // fail_on_inconclusive does not reach it
  auto e = entry("k", sure_of(0.6, 0.2));
  apply_measurement(e, borderline, warn_borderline);
  CHECK(e.verdict == report::KernelVerdict::warn);
  CHECK_THAT(e.notes.back(), Contains("borderline:") && Contains("(policy.on_borderline = warn)"));
  const MeasureSettings fail_borderline{false, false, 0, true};
  e = entry("k", sure_of(0.6, 0.2));
  apply_measurement(e, borderline, fail_borderline);
  CHECK(e.verdict == report::KernelVerdict::fail);
  CHECK_THAT(e.notes.back(), Contains("(policy.on_borderline = fail)"));
}

TEST_CASE("measure step: a head the base's captured launch cannot launch is not measured, not failed") {
  auto refused = bench::failed_measurement(
      "the candidate src/k.cuh:k<128, 4> failed: cuLaunchKernel(function, ...) failed: CUDA_ERROR_INVALID_VALUE (1)",
      "H200");
  const auto why = replay_did_not_fit(refused);
  REQUIRE(why.has_value());
  CHECK_THAT(*why, Contains("the base's captured launches do not launch the head's kernel") &&
                       Contains("CUDA_ERROR_INVALID_VALUE") && Contains("kforecast capture"));
  // A head that launched and then faulted, gave wrong results, or a broken base: the measurement stands.
  CHECK_FALSE(replay_did_not_fit(bench::failed_measurement(
      "the candidate k failed: cuStreamSynchronize(m_stream) failed: CUDA_ERROR_ILLEGAL_ADDRESS", "H200")));
  CHECK_FALSE(replay_did_not_fit(bench::failed_measurement("the candidate's output disagrees", "H200")));
  auto broken_base = refused;
  broken_base.blame = bench::Blame::reference;
  CHECK_FALSE(replay_did_not_fit(broken_base));
  CHECK_FALSE(replay_did_not_fit(measured(bench::Verdict::regression, 0.9, 1)));
}

TEST_CASE("measure step: a broken base leaves the kernel unverified, a head that broke the guard zones fails") {
  const MeasureSettings lenient{false, false, 0};
  const MeasureSettings strict_unverified{true, false, 0};
  auto broken = bench::failed_measurement(
      "the reference (base) is broken: size n=1000: the reference a.cu:k wrote 4 bytes past 'y' (seed 1)", "H100");
  broken.blame = bench::Blame::reference;

  auto e = entry("k", sure_of(0.6, 0.2));
  apply_measurement(e, broken, lenient);
  CHECK(e.decision == report::Decision::measured);
  CHECK(e.verdict == report::KernelVerdict::warn);
  CHECK(e.unverified);
  REQUIRE(e.measurement);
  CHECK(e.measurement->base_broken);
  CHECK(e.measurement->verdict == "failed");
  CHECK(e.measurement->speedup == 0);
  CHECK_THAT(e.notes.back(), Contains("unverified: measured on H100, but the reference (base) is broken: size n=1000: "
                                      "the reference a.cu:k wrote 4 bytes past 'y' (seed 1); the head is not judged "
                                      "(policy.on_unverified = warn)"));

  SECTION("policy.on_unverified = fail fails it, as any unverified kernel") {
    auto strict = entry("k", sure_of(0.6, 0.2));
    apply_measurement(strict, broken, strict_unverified);
    CHECK(strict.verdict == report::KernelVerdict::fail);
    CHECK(strict.unverified);
  }
  SECTION("a head that writes outside a buffer too is the head's failure") {
    auto both = bench::failed_measurement(
        "size n=1000: the candidate b.cu:k wrote 8 bytes past 'y' (seed 1); the reference did too: wrote 4 bytes past "
        "'y'",
        "H100");
    auto head = entry("k", sure_of(0.6, 0.2));
    apply_measurement(head, both, lenient);
    CHECK(head.verdict == report::KernelVerdict::fail);
    CHECK_FALSE(head.unverified);
    CHECK_FALSE(head.measurement->base_broken);
    CHECK_THAT(head.notes.back(), Contains("measurement failed on H100: size n=1000: the candidate b.cu:k wrote 8 bytes"));
  }
}

TEST_CASE("measure step: a kernel that cannot be measured stays unverified with the reason") {
  auto run = four_kernels();
  const MeasureKernel measure = [](std::size_t index) -> Result<bench::Measurement> {
    if (index == 0) return usage_error("no launch spec, so it cannot be run: add a `// kforecast:` comment block");
    return measured(bench::Verdict::regression, 0.5, 3);
  };
  const auto outcome = measure_kernels(run.cases, all_four, {false, false, 0}, measure);
  CHECK(outcome.measured == 3);
  CHECK(run.cases[0].entry.verdict == report::KernelVerdict::warn);
  CHECK_FALSE(run.cases[0].entry.measurement);
  CHECK_THAT(run.cases[0].entry.notes.back(), Contains("unverified: not measured: no launch spec"));
  CHECK(run.cases[1].entry.verdict == report::KernelVerdict::fail);
  CHECK(any_failed(run));
}

TEST_CASE("measure step: GPU time spent and saved against measuring every changed kernel") {
  auto run = four_kernels();
  run.cases.push_back({.entry = entry("new_kernel", std::nullopt)});
  run.cases.back().entry.change = report::Change::added;
  const std::vector<double> costs{2, 4, 9};
  std::size_t call = 0;
  const auto outcome = measure_kernels(
      run.cases, std::vector<std::size_t>{1, 2, 3}, {false, false, 0},
      [&](std::size_t) -> Result<bench::Measurement> { return measured(bench::Verdict::same, 1, costs[call++]); });
  const auto time = gpu_time(run.cases, outcome, "");
  CHECK(time.spent_seconds == Approx(15));
  CHECK(time.measured == 3);
  CHECK(time.measurable == 4);  // the added kernel had nothing to compare with
  REQUIRE(time.per_kernel_seconds);
  CHECK(*time.per_kernel_seconds == Approx(4));  // the median
  CHECK(*time.saved_seconds == Approx(4 * 4 - 15));

  const auto nothing = gpu_time(four_kernels().cases, {}, "no GPU");
  CHECK_FALSE(nothing.per_kernel_seconds);
  CHECK_FALSE(nothing.saved_seconds);
  CHECK(nothing.note == "no GPU");
}

TEST_CASE("measure step: the ledger line holds the forecast, the measurement, the hardware and the versions") {
  policy::LedgerEntry run;
  run.kforecast_version = "0.1.0";
  run.recorded = "2026-11-22T03:00:00Z";
  run.base = "1111";
  run.head = "2222";
  auto e = entry("sgemm", sure_of(0.6, 0.2));
  auto m = measured(bench::Verdict::regression, 0.8, 4.5);
  m.confidence = 0.99;
  m.tolerance = 0.02;
  auto line = ledger_entry(e, m, run);
  line.reference_hash = "aaaa";
  line.candidate_hash = "bbbb";
  const std::string text = policy::ledger_line(line);
  CHECK_THAT(text, Contains("\"kforecast\": \"0.1.0\""));
  CHECK_THAT(text, Contains("\"base\": \"1111\", \"head\": \"2222\""));
  CHECK_THAT(text, Contains("\"kernel\": \"sgemm\", \"file\": \"src/k.cu\""));
  CHECK_THAT(text, Contains("\"hardware\": \"NVIDIA H100 80GB HBM3\""));
  CHECK_THAT(text, Contains("\"reference_hash\": \"aaaa\", \"candidate_hash\": \"bbbb\""));
  CHECK_THAT(
      text,
      Contains("\"forecaster\": \"embedded\", \"model\": \"ordinal-v1\", \"forecaster_version\": \"ordinal-v1\""));
  CHECK_THAT(text, Contains("\"probabilities\": [0, 0.05, 0.15, 0.4, 0.3, 0.1, 0, 0]"));
  CHECK_THAT(text, Contains("\"speedup\": 0.8, \"verdict\": \"regression\", \"ci_low\": 0.784, \"ci_high\": 0.816"));
  CHECK_THAT(text, Contains("\"confidence\": 0.99, \"tolerance\": 0.02, \"gpu_seconds\": 4.5"));
  CHECK_THAT(text, Contains("\"driver\": \"550.54.15 (CUDA 12.4)\""));
  // And it reads back: `kforecast calibration` can use it.
  auto reading = policy::parse_ledger(text, "ledger.jsonl");
  REQUIRE(reading);
  REQUIRE(reading->entries.size() == 1);
  CHECK(*reading->entries[0].ci_high == Approx(0.816));
  CHECK(*reading->entries[0].gpu_seconds == Approx(4.5));

  SECTION("a failed measurement has no speedup, and says why") {
    auto failed_line =
        ledger_entry(e, bench::failed_measurement("cuLaunchKernel failed: CUDA_ERROR_ILLEGAL_ADDRESS", "H100"), run);
    const std::string failed_text = policy::ledger_line(failed_line);
    CHECK_THAT(failed_text, Contains("\"speedup\": null, \"verdict\": \"failed\", \"ci_low\": null"));
    CHECK_THAT(failed_text, Contains("\"reason\": \"cuLaunchKernel failed: CUDA_ERROR_ILLEGAL_ADDRESS\""));
  }
  SECTION("a kernel whose forecast failed is recorded as forecaster none") {
    auto unforecast = entry("k", std::nullopt);
    CHECK_THAT(policy::ledger_line(ledger_entry(unforecast, m, run)), Contains("\"forecaster\": \"none\""));
  }
}
