// SPDX-License-Identifier: Apache-2.0
// SARIF 2.1.0 for code-scanning annotations: one result per kernel that fails or warns, on the
// kernel's line at the head revision. Kernels that pass leave no result, so a clean PR leaves
// no annotation; the rule says which kind of problem it is.

#include <fmt/format.h>

#include <array>
#include <cctype>
#include <vector>

#include "base/json_string.hpp"
#include "report/writer.hpp"

namespace kforecast::report {
namespace {

struct Rule {
  std::string_view id, name, description;
};
constexpr Rule regression_rule{"kforecast/regression", "MeasuredRegression",
                               "The kernel is measurably slower than at the base revision."};
constexpr Rule failed_rule{"kforecast/failed", "CandidateFailed",
                           "The kernel no longer compiles, or its results disagree with the base revision's."};
constexpr Rule unverified_rule{"kforecast/unverified", "UnverifiedRisk",
                               "The kernel's code changed and its speed was neither trusted from a forecast nor "
                               "measured."};
constexpr std::array<Rule, 3> rules{regression_rule, failed_rule, unverified_rule};

// A measured kernel's rule follows its measurement: slower, failed, or (inconclusive, where
// policy.fail_on_inconclusive makes that fail) still unverified.
const Rule& rule_for(const KernelEntry& entry) {
  if (entry.verdict == KernelVerdict::warn || entry.unverified) return unverified_rule;
  if (entry.decision != Decision::measured) return failed_rule;
  if (!entry.measurement || entry.measurement->verdict == "regression") return regression_rule;
  return entry.measurement->verdict == "failed" ? failed_rule : unverified_rule;
}

std::string message_for(const KernelEntry& entry) {
  std::string text = fmt::format("kernel {} ({}, {})", entry.name, to_string(entry.change), to_string(entry.decision));
  if (!entry.notes.empty()) text += fmt::format(": {}", fmt::join(entry.notes, "; "));
  return text;
}

// A relative path as a URI reference (RFC 3986): bytes other than unreserved characters and '/'
// are percent-encoded, so "dir with space/x.cu" stays one valid artifact location.
std::string uri_reference(std::string_view path) {
  std::string uri;
  for (const unsigned char c : path) {
    const bool unreserved = std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    uri += unreserved ? std::string(1, static_cast<char>(c)) : fmt::format("%{:02X}", c);
  }
  return uri;
}

// Forecasts that stand in for a failed forecaster's, listed for the whole run: a kernel that
// passes leaves no result, yet its forecast's provenance must still show.
std::string fallbacks(const Report& report) {
  std::vector<std::string> items;
  for (const KernelEntry& entry : report.kernels)
    if (entry.forecast && !entry.forecast->fallback_for.empty())
      items.push_back(
          fmt::format("{{\"kernel\": {}, \"file\": {}, \"forecaster\": {}, \"fallbackFor\": {}, "
                      "\"reason\": {}}}",
                      json_string(entry.name), json_string(entry.file), json_string(entry.forecast->forecaster),
                      json_string(entry.forecast->fallback_for), json_string(entry.forecast->fallback_reason)));
  if (items.empty()) return "";
  return fmt::format(", \"forecastFallbacks\": [{}]", fmt::join(items, ", "));
}

class SarifWriter final : public Writer {
 public:
  using Writer::Writer;

 protected:
  void begin(const Report& report) override {
    out() << "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n"
             "  \"runs\": [\n    {\n      \"tool\": {\n        \"driver\": {\n"
          << fmt::format("          \"name\": \"kforecast\",\n          \"version\": {},\n",
                         json_string(report.version))
          << "          \"rules\": [\n";
    for (std::size_t i = 0; i < rules.size(); ++i)
      out() << fmt::format("            {{\"id\": {}, \"name\": {}, \"shortDescription\": {{\"text\": {}}}}}{}\n",
                           json_string(rules[i].id), json_string(rules[i].name), json_string(rules[i].description),
                           i + 1 < rules.size() ? "," : "");
    out() << "          ]\n        }\n      },\n";
    // A run-level warning (a forecaster that failed) is a tool execution notification: code
    // scanning shows those beside the results.
    if (!report.warnings.empty()) {
      std::vector<std::string> notifications;
      for (const RunWarning& warning : report.warnings)
        notifications.push_back(fmt::format("{{\"level\": \"warning\", \"message\": {{\"text\": {}}}}}",
                                            json_string(warning_text(warning))));
      out() << fmt::format(
          "      \"invocations\": [{{\"executionSuccessful\": true, \"toolExecutionNotifications\": [{}]}}],\n",
          fmt::join(notifications, ", "));
    }
    out() << fmt::format(
        "      \"properties\": {{\"head\": {}, \"base\": {}, \"verdict\": {}, \"summary\": {}, \"unjudged\": "
        "{}{}}},\n"
        "      \"results\": [",
        json_string(report.head), json_string(report.base), json_string(to_string(report.verdict)),
        json_string(summary(report)), unjudged_kernels(report), fallbacks(report));
  }

  void kernel(const KernelEntry& entry, std::size_t) override {
    if (entry.verdict == KernelVerdict::pass) return;
    const Rule& rule = rule_for(entry);
    const std::string region = entry.line > 0 ? fmt::format(", \"region\": {{\"startLine\": {}}}", entry.line) : "";
    out() << fmt::format(
        "{}\n        {{\n"
        "          \"ruleId\": {},\n          \"level\": \"{}\",\n          \"message\": {{\"text\": {}}},\n"
        "          \"locations\": [{{\"physicalLocation\": {{\"artifactLocation\": {{\"uri\": {}, "
        "\"uriBaseId\": \"%SRCROOT%\"}}{}}}}}],\n"
        "          \"partialFingerprints\": {{\"kforecastKernel/v1\": {}}}\n        }}",
        m_results == 0 ? "" : ",", json_string(rule.id), entry.verdict == KernelVerdict::fail ? "error" : "warning",
        json_string(message_for(entry)), json_string(uri_reference(entry.file)), region,
        json_string(fmt::format("{}:{}", entry.file, entry.name)));
    ++m_results;
  }

  void end(const Report&) override {
    out() << (m_results == 0 ? "]\n" : "\n      ]\n") << "    }\n  ]\n}\n";
    m_results = 0;
  }

 private:
  std::size_t m_results = 0;
};

}  // namespace

std::unique_ptr<Writer> make_sarif_writer(std::ostream& out) { return std::make_unique<SarifWriter>(out); }

}  // namespace kforecast::report
