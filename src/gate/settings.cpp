// SPDX-License-Identifier: Apache-2.0
#include "gate/settings.hpp"

namespace kforecast::gate {

std::filesystem::path ledger_path(const config::Config& config, const std::filesystem::path& repository_root) {
  std::filesystem::path configured = config.string_value("policy.ledger");
  if (configured.is_absolute()) return configured;
  return (config.file() ? config.file()->parent_path() : repository_root) / configured;
}

MeasureSettings measure_settings(const config::Config& config) {
  return {config.string_value("policy.on_unverified") == "fail", config.boolean_value("policy.fail_on_inconclusive"),
          config.number_value("policy.gpu_budget_seconds"), config.string_value("policy.on_borderline") == "fail"};
}

Settings read_settings(const config::Config& config, const std::filesystem::path& repository_root) {
  return {config,
          config.string_value("cuda.arch"),
          {config.number_value("policy.max_p_regression"), config.number_value("policy.min_confidence")},
          measure_settings(config),
          config.number_value("bench.tolerance"),
          config.number_value("bench.timeout_seconds"),
          config.string_value("forecast.hardware"),
          config.string_value("forecast.fallback") == "embedded",
          static_cast<std::size_t>(config.integer_value("kernels.max_file_kib")) * std::size_t{1024},
          ledger_path(config, repository_root),
          {repository_root, config.string_value("compile.database"),
           std::chrono::seconds(static_cast<long>(config.number_value("compile.budget_seconds"))),
           static_cast<std::size_t>(config.integer_value("compile.jobs")),
           static_cast<std::size_t>(config.integer_value("compile.max_units")), config.string_value("cuda.nvcc")}};
}

}  // namespace kforecast::gate
