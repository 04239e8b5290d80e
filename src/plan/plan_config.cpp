// SPDX-License-Identifier: Apache-2.0
#include "plan/plan_config.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "base/plain_text.hpp"
#include "config/config_compose.hpp"

namespace kforecast::plan {
namespace {

constexpr std::array<std::string_view, 8> judgement_keys{
    "policy.max_p_regression", "policy.min_confidence", "policy.on_unverified", "policy.fail_on_inconclusive",
    "policy.on_borderline",    "bench.tolerance",       "bench.confidence",     "report.format"};

constexpr std::array<std::string_view, 3> limit_keys{"policy.gpu_budget_seconds", "bench.max_gpu_seconds",
                                                     "bench.timeout_seconds"};

constexpr std::array<std::string_view, 1> plan_tables{"kernel"};

// The lower of two limits; for the GPU budget 0 means none, so any other value is lower.
double lower_limit(std::string_view key, double own, double plan) {
  if (key == "policy.gpu_budget_seconds" && (own == 0 || plan == 0)) return own == 0 ? plan : own;
  return std::min(own, plan);
}

}  // namespace

std::span<const std::string_view> plan_judgement_keys() { return judgement_keys; }
std::span<const std::string_view> plan_limit_keys() { return limit_keys; }

Result<config::Config> plan_config(const Plan& plan, std::string_view plan_path, const config::Config& own,
                                   const EnvLookup& env) {
  // The name comes from the plan: one line of it, in messages that name the plan's file first.
  const std::string plan_config_name =
      fmt::format("{} (the plan's config, {})", plan_path, printable_line(plan.config_name.substr(0, 200)));
  auto parsed = config::parse_config(plan.config_text, plan_config_name);
  if (!parsed) return std::unexpected(parsed.error());
  std::vector<config::ComposedSetting> settings;
  for (const std::string_view key : judgement_keys)
    if (const auto& setting = parsed->setting(key); setting.source == config::Source::file)
      settings.push_back({std::string(key), setting.value});
  for (const std::string_view key : limit_keys)
    if (const auto& setting = parsed->setting(key); setting.source == config::Source::file) {
      const double lower = lower_limit(key, own.number_value(key), std::get<double>(setting.value));
      if (lower != own.number_value(key)) settings.push_back({std::string(key), lower});
    }
  return config::compose_config(own, settings, *parsed, plan_tables,
                                fmt::format("{} (its judgement settings with this job's config)", plan_path), env);
}

PlanLimits plan_limits(const config::Config& own) {
  PlanLimits limits;
  limits.max_bytes = static_cast<std::size_t>(own.integer_value("security.max_plan_mib")) << 20;
  return limits;
}

}  // namespace kforecast::plan
