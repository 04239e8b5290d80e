// SPDX-License-Identifier: Apache-2.0
#include "report/report.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace kforecast::report {

std::string_view to_string(Change change) {
  switch (change) {
    case Change::modified:
      return "modified";
    case Change::added:
      return "added";
    case Change::removed:
      return "removed";
    case Change::renamed:
      return "renamed";
  }
  return "modified";
}

std::string_view to_string(Decision decision) {
  switch (decision) {
    case Decision::identical_code:
      return "identical_code";
    case Decision::trusted_forecast:
      return "trusted_forecast";
    case Decision::measured:
      return "measured";
    case Decision::forecast_only:
      return "forecast_only";
    case Decision::skipped:
      return "skipped";
  }
  return "skipped";
}

std::string_view to_string(KernelVerdict verdict) {
  switch (verdict) {
    case KernelVerdict::pass:
      return "pass";
    case KernelVerdict::fail:
      return "fail";
    case KernelVerdict::warn:
      return "warn";
  }
  return "warn";
}

std::string_view to_string(GateVerdict verdict) {
  switch (verdict) {
    case GateVerdict::pass:
      return "pass";
    case GateVerdict::fail:
      return "fail";
    case GateVerdict::inconclusive:
      return "inconclusive";
  }
  return "inconclusive";
}

namespace {

bool unjudged(const KernelEntry& entry) { return entry.unverified || entry.verdict == KernelVerdict::warn; }

}  // namespace

std::size_t unjudged_kernels(const Report& report) {
  return static_cast<std::size_t>(std::ranges::count_if(report.kernels, unjudged));
}

std::string summary(const Report& report) {
  const std::size_t count = unjudged_kernels(report);
  if (count == 0) return std::string(to_string(report.verdict));
  const std::string kernels = fmt::format("{} kernel{} could not be judged", count, count == 1 ? "" : "s");
  if (report.verdict == GateVerdict::pass) return "pass, but " + kernels;
  const bool failed_on_evidence = std::ranges::any_of(report.kernels, [](const KernelEntry& entry) {
    return entry.verdict == KernelVerdict::fail && !unjudged(entry);
  });
  return fmt::format("{}{}{}", to_string(report.verdict), failed_on_evidence ? ", and " : ": ", kernels);
}

std::string warning_text(const RunWarning& warning) {
  return warning.detail.empty() ? warning.headline : fmt::format("{}: {}", warning.headline, warning.detail);
}

}  // namespace kforecast::report
