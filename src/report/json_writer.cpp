// SPDX-License-Identifier: Apache-2.0
// The JSON report: one object, two-space indentation, stable key order.

#include <fmt/format.h>

#include <cmath>

#include "base/json_string.hpp"
#include "report/writer.hpp"

namespace kforecast::report {
namespace {

std::string string_array(const std::vector<std::string>& items, std::string_view indent) {
  if (items.empty()) return "[]";
  std::string text = "[\n";
  for (std::size_t i = 0; i < items.size(); ++i)
    text += fmt::format("{}  {}{}\n", indent, json_string(items[i]), i + 1 < items.size() ? "," : "");
  return text + std::string(indent) + "]";
}

// null, or which forecaster failed and why this forecast stands in for its.
std::string fallback_object(const ForecastEntry& forecast) {
  if (forecast.fallback_for.empty()) return "null";
  return fmt::format("{{\"for\": {}, \"reason\": {}}}", json_string(forecast.fallback_for),
                     json_string(forecast.fallback_reason));
}

std::string forecast_object(const std::optional<ForecastEntry>& forecast) {
  if (!forecast) return "null";
  std::string probabilities;
  for (double p : forecast->probabilities)
    probabilities += fmt::format("{}{:.6g}", probabilities.empty() ? "" : ", ", p);
  return fmt::format(
      "{{\n        \"forecaster\": {},\n        \"model\": {},\n        \"bin\": {},\n"
      "        \"probabilities\": [{}],\n        \"confidence\": {:.6g},\n        \"p_regression\": {:.6g},\n"
      "        \"rationale\": {},\n        \"raw_sum\": {:.6g},\n        \"prompt_version\": {},\n"
      "        \"cached\": {},\n        \"fallback\": {}\n      }}",
      json_string(forecast->forecaster), json_string(forecast->model), forecast->bin, probabilities,
      forecast->confidence, forecast->p_regression, json_string(forecast->rationale), forecast->raw_sum,
      json_string(forecast->prompt_version), forecast->cached ? "true" : "false", fallback_object(*forecast));
}

// A number, or null where it is not finite (an interval from fewer than two rounds is infinite).
std::string finite_number(double value) { return std::isfinite(value) ? fmt::format("{:.6g}", value) : "null"; }

std::string measurement_object(const std::optional<MeasurementEntry>& measurement) {
  if (!measurement) return "null";
  // Nothing timed (a failed measurement): no speedup, interval, bin or times rather than zeros.
  const bool timed = measurement->speedup > 0 && std::isfinite(measurement->speedup);
  const auto timed_number = [&](double value) { return timed ? finite_number(value) : std::string("null"); };
  return fmt::format(
      "{{\n        \"speedup\": {},\n        \"ci_low\": {},\n        \"ci_high\": {},\n"
      "        \"bin\": {},\n        \"verdict\": {},\n        \"t_base_us\": {},\n"
      "        \"t_head_us\": {},\n        \"gpu\": {},\n        \"gpu_seconds\": {},\n"
      "        \"wall_seconds\": {},\n        \"reason\": {}\n      }}",
      timed_number(measurement->speedup), timed_number(measurement->ci_low), timed_number(measurement->ci_high),
      timed ? std::to_string(measurement->bin) : "null", json_string(measurement->verdict),
      timed_number(measurement->t_base_us), timed_number(measurement->t_head_us), json_string(measurement->gpu), finite_number(measurement->gpu_seconds),
      finite_number(measurement->wall_seconds), json_string(measurement->reason));
}

std::string optional_number(const std::optional<double>& value) { return value ? finite_number(*value) : "null"; }

// The run's GPU time (an additive key beside the core ones), written only by runs that measured
// or could have.
std::string gpu_time_member(const std::optional<GpuTime>& time) {
  if (!time) return "";
  return fmt::format(
      "  \"gpu_time\": {{\"spent_seconds\": {}, \"measured\": {}, \"measurable\": {}, "
      "\"per_kernel_seconds\": {}, \"saved_seconds\": {}, \"note\": {}, \"wall_seconds\": {}}},\n",
      finite_number(time->spent_seconds), time->measured, time->measurable, optional_number(time->per_kernel_seconds),
      optional_number(time->saved_seconds), json_string(time->note), finite_number(time->wall_seconds));
}

class JsonWriter final : public Writer {
 public:
  using Writer::Writer;

 protected:
  void begin(const Report& report) override {
    out() << fmt::format("{{\n  \"kforecast\": {},\n  \"base\": {},\n  \"head\": {},\n  \"verdict\": {},\n",
                         json_string(report.version), json_string(report.base), json_string(report.head),
                         json_string(to_string(report.verdict)));
    // Additive keys beside the core ones: the summary line, how many kernels were not judged, and
    // the run's warnings (a forecaster that failed).
    std::vector<std::string> warnings;
    for (const RunWarning& warning : report.warnings) warnings.push_back(warning_text(warning));
    out() << fmt::format("  \"summary\": {},\n  \"unjudged\": {},\n  \"warnings\": {},\n", json_string(summary(report)),
                         unjudged_kernels(report), string_array(warnings, "  "));
    out() << (report.kernels.empty() ? "  \"kernels\": [" : "  \"kernels\": [\n");
  }

  void kernel(const KernelEntry& entry, std::size_t index) override {
    out() << fmt::format(
        "{}    {{\n"
        "      \"name\": {},\n      \"file\": {},\n      \"line\": {},\n"
        "      \"change\": {},\n      \"decision\": {},\n"
        "      \"forecast\": {},\n      \"measurement\": {},\n"
        "      \"verdict\": {},\n      \"build\": {},\n{}      \"notes\": {}\n    }}",
        index == 0 ? "" : ",\n", json_string(entry.name), json_string(entry.file), entry.line,
        json_string(to_string(entry.change)), json_string(to_string(entry.decision)), forecast_object(entry.forecast),
        measurement_object(entry.measurement), json_string(to_string(entry.verdict)),
        entry.build.empty() ? std::string("null") : json_string(entry.build),
        // An additive key, only for a kernel renamed or moved: its name and file at the base.
        entry.base_kernel.empty() ? std::string() : fmt::format("      \"base_kernel\": {},\n", json_string(entry.base_kernel)),
        string_array(entry.notes, "      "));
  }

  void end(const Report& report) override {
    out() << (report.kernels.empty() ? "],\n" : "\n  ],\n");
    out() << gpu_time_member(report.gpu_time);
    out() << fmt::format("  \"notes\": {}\n}}\n", string_array(report.notes, "  "));
  }
};

}  // namespace

std::unique_ptr<Writer> make_json_writer(std::ostream& out) { return std::make_unique<JsonWriter>(out); }

}  // namespace kforecast::report
