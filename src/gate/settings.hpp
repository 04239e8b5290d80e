// SPDX-License-Identifier: Apache-2.0
#pragma once

// The gate's settings, read from the config once per command (docs/config.md), so the
// steps take typed values instead of looking keys up as they go. The config stays reachable for
// what hands it on whole: the benchmark child's --config, and [[kernel]] launch specs.

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string>

#include "builds/unit_context.hpp"
#include "config/config.hpp"
#include "gate/measure_step.hpp"
#include "policy/trust.hpp"

namespace kforecast::gate {

struct Settings {
  const config::Config& config;
  std::string arch;                  // cuda.arch; "auto": the first local GPU's
  policy::TrustThresholds trust;     // policy.max_p_regression, policy.min_confidence
  MeasureSettings measure;           // policy.on_unverified, fail_on_inconclusive, gpu_budget_seconds
  double tolerance = 0;              // bench.tolerance
  double bench_timeout_seconds = 0;  // bench.timeout_seconds
  std::string hardware;              // forecast.hardware: the target GPU of the forecasts
  bool fallback_to_embedded = false; // forecast.fallback = "embedded"
  std::size_t max_file_bytes = 0;    // kernels.max_file_kib
  std::filesystem::path ledger;      // policy.ledger, resolved (ledger_path)
  builds::CompileSettings compile;
};

// policy.ledger, relative to the config file's directory, else to `repository_root` (where the
// base revision's .kforecast.toml lives): where `kforecast calibration` looks.
std::filesystem::path ledger_path(const config::Config& config, const std::filesystem::path& repository_root);

// The measuring step's settings alone: the same for pr, a plan's shards and report --merge.
MeasureSettings measure_settings(const config::Config& config);

// Every setting of `config`; it must outlive the result.
Settings read_settings(const config::Config& config, const std::filesystem::path& repository_root);

}  // namespace kforecast::gate
