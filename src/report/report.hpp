// SPDX-License-Identifier: Apache-2.0
#pragma once

// What a `kforecast pr` run concluded, independent of how it is written. Field names and values
// follow the JSON contract in DESIGN.md ("Interfaces that other tools rely on").

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kforecast::report {

enum class Change { modified, added, removed, renamed };
enum class Decision { identical_code, trusted_forecast, measured, forecast_only, skipped };
enum class KernelVerdict { pass, fail, warn };
enum class GateVerdict { pass, fail, inconclusive };

// A forecast as the report shows it: DESIGN.md's "forecast" object, plus a few additive keys
// about the answer's health and provenance.
struct ForecastEntry {
  std::string forecaster;  // "embedded" | "llm"
  std::string model;
  int bin = 0;            // 1..8, the distribution's most probable bin
  std::string bin_label;  // "minor speedup"
  std::array<double, 8> probabilities{};
  double confidence = 0;
  double p_regression = 0;
  std::string rationale;
  double raw_sum = 1;  // the forecaster's probabilities summed to this before renormalising
  std::string prompt_version;
  bool cached = false;
  // Set when this forecast stands in for another forecaster's that failed (forecast.fallback):
  // which one failed ("llm") and its error. Empty otherwise.
  std::string fallback_for;
  std::string fallback_reason;
};

struct KernelEntry {
  std::string name;
  std::string file;
  std::uint32_t line = 0;
  Change change = Change::modified;
  Decision decision = Decision::forecast_only;
  KernelVerdict verdict = KernelVerdict::pass;
  std::vector<std::string> notes;         // why a step did not run, what was compared, ...
  std::optional<ForecastEntry> forecast;  // null where no forecast was made or it failed (notes say why)
  // measurement is written as null until the benchmark lands.
};

struct Report {
  std::string version;  // kforecast's
  std::string base;     // commit hashes
  std::string head;
  GateVerdict verdict = GateVerdict::pass;
  std::vector<KernelEntry> kernels;
  std::vector<std::string> notes;  // run-level: how the range was chosen, what was unavailable
};

std::string_view to_string(Change change);
std::string_view to_string(Decision decision);
std::string_view to_string(KernelVerdict verdict);
std::string_view to_string(GateVerdict verdict);

}  // namespace kforecast::report
