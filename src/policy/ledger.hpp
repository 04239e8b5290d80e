// SPDX-License-Identifier: Apache-2.0
#pragma once

// The ledger: one JSON line per measured kernel, appended by every run that
// measures and kept by CI as an artifact or cache. Each line pairs what was forecast with what
// was measured, so `kforecast calibration` can say how good the forecasts are in this
// repository and which thresholds would have held a target error rate.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "forecast/bin_distribution.hpp"

namespace kforecast::policy {

struct LedgerEntry {
  std::string kforecast_version;
  std::string recorded;  // UTC, ISO 8601: "2026-11-21T23:10:00Z"
  std::string base, head;
  std::string kernel, file;
  std::string hardware;                        // the GPU measured on: "NVIDIA H100 80GB HBM3"
  std::string reference_hash, candidate_hash;  // of the texts compared
  std::string forecaster, model;               // "embedded", "llm" and the model's name
  std::string forecaster_version;              // the prompt set's or the embedded model's version
  forecast::BinDistribution forecast = forecast::BinDistribution::uniform();
  std::optional<double> speedup;  // absent when the measurement failed
  std::string verdict;            // the measurement's: faster, same, regression, inconclusive, failed
  // Additive fields (older lines lack them; absent reads as nullopt / empty):
  std::optional<double> ci_low, ci_high;  // the speedup's interval at `confidence`
  std::optional<double> confidence;       // bench.confidence
  std::optional<double> tolerance;        // bench.tolerance the verdict was taken at
  std::optional<double> gpu_seconds;      // GPU time the measurement took
  std::string driver;                     // "550.54.15 (CUDA 12.4)"
  std::string reason;                     // why failed or inconclusive
};

// The entry as one line of JSON, newline included.
std::string ledger_line(const LedgerEntry& entry);

// Appends one line with a single write to a file opened for appending, so runs that share a
// ledger never interleave within a line. Creates the file and its directory.
Result<void> append_to_ledger(const std::filesystem::path& path, const LedgerEntry& entry);

struct LedgerReading {
  std::vector<LedgerEntry> entries;
  std::size_t without_speedup = 0;  // failed measurements: they have nothing to calibrate against
  std::vector<std::string> notes;   // "skipped a torn last line (a run ended while writing)"
};

// Reads a ledger. A malformed line is an error naming `source`, the line and the field — except
// a last line without its newline, which a run killed mid-write leaves and which is skipped
// with a note. Blank lines are allowed.
Result<LedgerReading> parse_ledger(std::string_view text, std::string_view source);

}  // namespace kforecast::policy
