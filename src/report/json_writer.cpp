// SPDX-License-Identifier: Apache-2.0
// The JSON report of DESIGN.md: one object, two-space indentation, stable key order.

#include <fmt/format.h>

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

class JsonWriter final : public Writer {
 public:
  using Writer::Writer;

 protected:
  void begin(const Report& report) override {
    out() << fmt::format("{{\n  \"kforecast\": {},\n  \"base\": {},\n  \"head\": {},\n  \"verdict\": {},\n",
                         json_string(report.version), json_string(report.base), json_string(report.head),
                         json_string(to_string(report.verdict)));
    out() << (report.kernels.empty() ? "  \"kernels\": [" : "  \"kernels\": [\n");
  }

  void kernel(const KernelEntry& entry, std::size_t index) override {
    out() << fmt::format(
        "{}    {{\n"
        "      \"name\": {},\n      \"file\": {},\n      \"line\": {},\n"
        "      \"change\": {},\n      \"decision\": {},\n"
        "      \"forecast\": {},\n      \"measurement\": null,\n"
        "      \"verdict\": {},\n      \"notes\": {}\n    }}",
        index == 0 ? "" : ",\n", json_string(entry.name), json_string(entry.file), entry.line,
        json_string(to_string(entry.change)), json_string(to_string(entry.decision)), forecast_object(entry.forecast),
        json_string(to_string(entry.verdict)), string_array(entry.notes, "      "));
  }

  void end(const Report& report) override {
    out() << (report.kernels.empty() ? "],\n" : "\n  ],\n");
    out() << fmt::format("  \"notes\": {}\n}}\n", string_array(report.notes, "  "));
  }
};

}  // namespace

std::unique_ptr<Writer> make_json_writer(std::ostream& out) { return std::make_unique<JsonWriter>(out); }

}  // namespace kforecast::report
