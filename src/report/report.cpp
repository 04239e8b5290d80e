// SPDX-License-Identifier: Apache-2.0
#include "report/report.hpp"

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

}  // namespace kforecast::report
