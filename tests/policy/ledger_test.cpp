// SPDX-License-Identifier: Apache-2.0
#include "policy/ledger.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <thread>

#include "support/temp_dir.hpp"

using namespace kforecast;
using namespace kforecast::policy;
using Catch::Matchers::Contains;

namespace {
LedgerEntry entry(double speedup) {
  LedgerEntry e;
  e.kforecast_version = "0.1.0";
  e.recorded = "2026-11-21T23:10:00Z";
  e.kernel = "sgemm<64>\"quoted\"";
  e.file = "src/gemm.cu";
  e.hardware = "NVIDIA H100 80GB HBM3";
  e.forecaster = "embedded";
  e.forecast = *forecast::BinDistribution::from_raw(std::vector<double>{0, 0, 0.1, 0.2, 0.5, 0.2, 0, 0});
  e.speedup = speedup;
  e.verdict = "same";
  return e;
}
std::string failure(std::string_view text) {
  auto reading = parse_ledger(text, "ledger.jsonl");
  REQUIRE_FALSE(reading.has_value());
  return reading.error().message;
}
}  // namespace

TEST_CASE("ledger: a line written is read back the same") {
  const LedgerEntry written = entry(1.031);
  const std::string line = ledger_line(written);
  CHECK(line.ends_with("}\n"));
  CHECK(std::ranges::count(line, '\n') == 1);
  auto reading = parse_ledger(line + "\n" + line, "ledger.jsonl");
  REQUIRE(reading.has_value());
  REQUIRE(reading->entries.size() == 2);
  const LedgerEntry& read = reading->entries[0];
  CHECK(read.kernel == written.kernel);
  CHECK(read.hardware == written.hardware);
  CHECK(read.speedup == Approx(1.031));
  CHECK(read.forecast.probability(forecast::SpeedupBin::minor_speedup) == Approx(0.5));
}

TEST_CASE("ledger: failed measurements are counted, not calibrated against") {
  LedgerEntry failed = entry(1.0);
  failed.speedup.reset();
  failed.verdict = "failed";
  auto reading = parse_ledger(ledger_line(failed) + ledger_line(entry(0.5)), "ledger.jsonl");
  REQUIRE(reading.has_value());
  CHECK(reading->entries.size() == 1);
  CHECK(reading->without_speedup == 1);
}

TEST_CASE("ledger: a torn last line is skipped with a note, any other bad line is an error") {
  const std::string good = ledger_line(entry(1.2));
  auto torn = parse_ledger(good + good.substr(0, 40), "ledger.jsonl");
  REQUIRE(torn.has_value());
  CHECK(torn->entries.size() == 1);
  REQUIRE(torn->notes.size() == 1);
  CHECK_THAT(torn->notes[0], Contains("ledger.jsonl:2: skipped a last line"));

  CHECK_THAT(failure(good.substr(0, 40) + "\n" + good), Contains("ledger.jsonl:1: not JSON"));
  CHECK_THAT(failure("\n[1]\n"), Contains("ledger.jsonl:2: not a JSON object"));
  CHECK_THAT(failure("{\"speedup\": 1}\n"), Contains("`probabilities` must be an array of 8 numbers"));
  CHECK_THAT(failure("{\"probabilities\": [1, 0, 0], \"speedup\": 1}\n"), Contains("`probabilities`:"));
  CHECK_THAT(failure("{\"probabilities\": [1, 0, 0, 0, 0, 0, 0, \"x\"]}\n"), Contains("8 numbers"));
  CHECK_THAT(failure("{\"probabilities\": [1, 0, 0, 0, 0, 0, 0, 0], \"speedup\": -2}\n"),
             Contains("`speedup` must be a positive number or null"));
  CHECK_THAT(failure("{\"probabilities\": [1, 0, 0, 0, 0, 0, 0, 0], \"kernel\": 3}\n"),
             Contains("`kernel` is not a string"));
  auto blank = parse_ledger("\n  \n", "ledger.jsonl");
  REQUIRE(blank.has_value());
  CHECK(blank->entries.empty());
}

TEST_CASE("ledger: concurrent appends never interleave within a line") {
  kforecast::testing::TempDir dir;
  const auto path = dir.path() / "nested" / "ledger.jsonl";
  std::vector<std::thread> writers;
  std::atomic<int> failed_appends = 0;  // Catch's assertions are not thread-safe: count, check after
  for (int t = 0; t < 8; ++t)
    writers.emplace_back([&path, &failed_appends, t] {
      for (int i = 0; i < 50; ++i)
        if (!append_to_ledger(path, entry(1.0 + t * 0.01))) ++failed_appends;
    });
  for (auto& writer : writers) writer.join();
  CHECK(failed_appends == 0);
  std::ifstream in(path);
  const std::string text{std::istreambuf_iterator<char>(in), {}};
  auto reading = parse_ledger(text, path.string());
  REQUIRE(reading.has_value());
  CHECK(reading->entries.size() == 400);
  CHECK(reading->notes.empty());
}

TEST_CASE("ledger: an unwritable ledger is an error naming it") {
  auto appended = append_to_ledger("/proc/kforecast-ledger.jsonl", entry(1.0));
  REQUIRE_FALSE(appended.has_value());
  CHECK_THAT(appended.error().message, Contains("/proc/kforecast-ledger.jsonl"));
}

TEST_CASE("ledger: the measurement's interval, GPU time and driver are read back, and older lines lack them") {
  LedgerEntry written = entry(0.8);
  written.ci_low = 0.78;
  written.ci_high = 0.82;
  written.confidence = 0.99;
  written.tolerance = 0.02;
  written.gpu_seconds = 4.25;
  written.driver = "580.159.04 (CUDA 13.0)";
  written.reason = "";
  auto reading = parse_ledger(ledger_line(written), "ledger.jsonl");
  REQUIRE(reading.has_value());
  REQUIRE(reading->entries.size() == 1);
  const LedgerEntry& read = reading->entries[0];
  CHECK(*read.ci_low == Approx(0.78));
  CHECK(*read.ci_high == Approx(0.82));
  CHECK(*read.gpu_seconds == Approx(4.25));
  CHECK(read.driver == written.driver);

  auto old = parse_ledger(
      R"({"kernel": "k", "probabilities": [0, 0, 0, 0.5, 0.5, 0, 0, 0], "speedup": 1.1, "verdict": "faster"})"
      "\n",
      "old.jsonl");
  REQUIRE(old.has_value());
  REQUIRE(old->entries.size() == 1);
  CHECK_FALSE(old->entries[0].ci_low);
  CHECK_FALSE(old->entries[0].gpu_seconds);

  CHECK_THAT(failure(R"({"probabilities": [0, 0, 0, 0.5, 0.5, 0, 0, 0], "speedup": 1.1, "ci_low": "low"})"
                     "\n"),
             Contains("ledger.jsonl:1: `ci_low` must be a number or null"));
}
