// SPDX-License-Identifier: Apache-2.0
// `kforecast calibration`'s figures and writers on hand-made ledger entries; the command itself
// runs in tests/e2e/pr_command_test.cpp on a ledger that pr wrote.
#include "policy/ledger_calibration.hpp"

#include <sstream>

#include <catch2/catch.hpp>

using namespace kforecast;
using namespace kforecast::policy;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

namespace {

LedgerEntry measured(forecast::SpeedupBin bin, double speedup) {
  LedgerEntry entry;
  entry.forecast = forecast::BinDistribution::one_hot(bin);
  entry.speedup = speedup;
  return entry;
}

// Two sure and right forecasts of a small speedup, and one sure of a speedup that regressed.
LedgerReading three_measured() {
  LedgerReading reading;
  reading.entries = {measured(forecast::SpeedupBin::minor_speedup, 1.05),
                     measured(forecast::SpeedupBin::minor_speedup, 1.04),
                     measured(forecast::SpeedupBin::minor_speedup, 0.5)};
  reading.without_speedup = 1;
  return reading;
}

}  // namespace

TEST_CASE("ledger calibration: a ledger without a measured speedup is an error that names it") {
  LedgerReading reading;
  reading.without_speedup = 2;
  const auto calibration = calibrate(reading, "ledger.jsonl", {}, 0.02, 0.02);
  REQUIRE_FALSE(calibration);
  CHECK(calibration.error().exit_code == ExitCode::could_not_run);
  CHECK(calibration.error().message ==
        "the ledger ledger.jsonl has no measured kernel with a speedup yet (2 failed measurements)");
}

TEST_CASE("ledger calibration: the figures of three measured kernels") {
  const auto calibration = calibrate(three_measured(), "ledger.jsonl", {0.2, 0.5}, 0.02, 0.0);
  REQUIRE(calibration);
  CHECK(calibration->measured == 3);
  CHECK(calibration->failed_measurements == 1);
  CHECK(calibration->metrics.n == 3);
  CHECK(calibration->metrics.accuracy == Approx(2.0 / 3.0));
  // Every forecast is sure of a small speedup, so the configured policy trusts all three,
  // the regression among them.
  CHECK(calibration->current_outcome.trusted == 3);
  CHECK(calibration->current_outcome.trusted_regressions == 1);
  // No thresholds can tell the regression from the others: nothing is trusted at risk 0.
  CHECK_FALSE(calibration->fitted);

  SECTION("the text names the ledger, the failed measurements and the way forward") {
    std::ostringstream out;
    write_calibration_text(out, *calibration);
    CHECK_THAT(out.str(), StartsWith("kforecast calibration: ledger.jsonl: 3 measured kernels (1 failed measurements "
                                     "not counted)\n"));
    CHECK_THAT(out.str(), Contains("  trusted             3 of 3 (gpu_fraction 0.000)\n"));
    CHECK_THAT(out.str(), Contains("keep measuring every changed kernel"));
  }
  SECTION("the JSON holds the same figures, and null for no fitted policy") {
    std::ostringstream out;
    write_calibration_json(out, *calibration);
    CHECK_THAT(out.str(), Contains("\"ledger\": \"ledger.jsonl\",\n  \"measured\": 3,\n  \"failed_measurements\": 1,"));
    CHECK_THAT(out.str(), Contains("\"fitted_policy\": null\n}\n"));
  }
}
