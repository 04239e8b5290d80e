// SPDX-License-Identifier: Apache-2.0
#include "plan/plan_read.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "plan/json_read.hpp"
#include "plan/plan_arguments.hpp"

namespace kforecast::plan {
namespace {

using namespace json_read;

// The reader of one plan: every string and list through the limits.
class PlanReader {
 public:
  explicit PlanReader(const PlanLimits& limits) : m_limits(limits) {}

  Plan read(const Json& root) const {
    Plan plan;
    plan.kforecast_version = name(root, "kforecast", "");
    const auto& config = object_at(root, "config", "");
    plan.config_name = name(config, "name", "config");
    plan.config_text = bounded_string_at(config, "text", "config", m_limits.max_config_bytes, "a config");
    plan.ledger = name(root, "ledger", "");
    plan.no_bench = bool_at(root, "no_bench", "");
    plan.shards = unsigned_at(root, "shards", "");
    plan.report = read_report(object_at(root, "report", ""));
    const std::vector<SharedText> texts = read_texts(root);
    read_jobs(root, texts, plan);
    return plan;
  }

 private:
  std::string name(const Json& o, std::string_view key, std::string_view path) const {
    return bounded_string_at(o, key, path, m_limits.max_name_bytes, "a name");
  }
  std::string note(const Json& o, std::string_view key, std::string_view path) const {
    return bounded_string_at(o, key, path, m_limits.max_note_bytes, "a note");
  }
  std::vector<std::string> list(const Json& o, std::string_view key, std::string_view path, std::size_t max_bytes,
                                std::string_view what) const {
    std::vector<std::string> values;
    const std::string at = path.empty() ? std::string(key) : fmt::format("{}.{}", path, key);
    std::size_t i = 0;
    for (const Json& element : bounded_array_at(o, key, path, m_limits.max_entries, "a list"))
      values.push_back(bounded_string(element, fmt::format("{}[{}]", at, i++), max_bytes, what));
    return values;
  }
  std::vector<std::string> notes(const Json& o, std::string_view path) const {
    return list(o, "notes", path, m_limits.max_note_bytes, "a note");
  }

  template <typename Enum, std::size_t N>
  static Enum enum_at(const Json& object, std::string_view key, std::string_view path,
                      const std::array<Enum, N>& values) {
    const std::string text = string_at(object, key, path);
    for (const Enum value : values)
      if (report::to_string(value) == text) return value;
    malformed(fmt::format("{}.{}", path, key), "one of the schema's values");
  }

  report::ForecastEntry read_forecast(const Json& o, const std::string& path) const {
    report::ForecastEntry f;
    f.forecaster = name(o, "forecaster", path);
    f.model = name(o, "model", path);
    const auto bin = unsigned_at(o, "bin", path);
    if (bin > 8) malformed(path + ".bin", "a bin number, 0 to 8");
    f.bin = static_cast<int>(bin);
    f.bin_label = name(o, "bin_label", path);
    std::size_t i = 0;
    for (const Json& element : array_at(o, "probabilities", path)) {
      if (i >= f.probabilities.size() || !element.is_number()) malformed(path + ".probabilities", "eight numbers");
      f.probabilities[i++] = element.get<double>();
    }
    if (i != f.probabilities.size()) malformed(path + ".probabilities", "eight numbers");
    f.confidence = number_at(o, "confidence", path);
    f.p_regression = number_at(o, "p_regression", path);
    f.rationale = note(o, "rationale", path);
    f.raw_sum = number_at(o, "raw_sum", path);
    f.prompt_version = name(o, "prompt_version", path);
    f.cached = bool_at(o, "cached", path);
    f.fallback_for = name(o, "fallback_for", path);
    f.fallback_reason = note(o, "fallback_reason", path);
    return f;
  }

  report::KernelEntry read_entry(const Json& o, const std::string& path) const {
    using report::Change, report::Decision, report::KernelVerdict;
    report::KernelEntry e;
    e.name = name(o, "name", path);
    e.file = name(o, "file", path);
    const auto line = unsigned_at(o, "line", path);
    if (line > UINT32_MAX) malformed(path + ".line", "a line number");
    e.line = static_cast<std::uint32_t>(line);
    e.change =
        enum_at(o, "change", path, std::array{Change::modified, Change::added, Change::removed, Change::renamed});
    e.decision = enum_at(o, "decision", path,
                         std::array{Decision::identical_code, Decision::trusted_forecast, Decision::measured,
                                    Decision::forecast_only, Decision::skipped});
    e.verdict = enum_at(o, "verdict", path, std::array{KernelVerdict::pass, KernelVerdict::fail, KernelVerdict::warn});
    e.unverified = bool_at(o, "unverified", path);
    e.build = note(o, "build", path);
    if (!is_null(o, "base_kernel")) e.base_kernel = name(o, "base_kernel", path);  // absent in older plans
    e.notes = notes(o, path);
    if (!is_null(o, "forecast")) e.forecast = read_forecast(object_at(o, "forecast", path), path + ".forecast");
    return e;
  }

  report::Report read_report(const Json& r) const {
    report::Report report;
    report.version = name(r, "kforecast", "report");
    report.base = name(r, "base", "report");
    report.head = name(r, "head", "report");
    report.verdict =
        enum_at(r, "verdict", "report",
                std::array{report::GateVerdict::pass, report::GateVerdict::fail, report::GateVerdict::inconclusive});
    report.notes = notes(r, "report");
    // Optional: a plan without warnings (none, or written before they were recorded) has none.
    if (const Json* warnings = json_document::find(r, "warnings"); warnings != nullptr && warnings->is_array()) {
      bounded_array_at(r, "warnings", "report", m_limits.max_entries, "a list");
      std::size_t w = 0;
      for (const Json& element : *warnings) {
        const std::string path = fmt::format("report.warnings[{}]", w++);
        const auto& o = as_object(element, path);
        report.warnings.push_back({note(o, "headline", path), note(o, "detail", path)});
      }
    }
    std::size_t i = 0;
    for (const Json& element : bounded_array_at(r, "kernels", "report", m_limits.max_kernels, "a plan")) {
      const std::string path = fmt::format("report.kernels[{}]", i++);
      report.kernels.push_back(read_entry(as_object(element, path), path));
    }
    return report;
  }

  std::vector<SharedText> read_texts(const Json& root) const {
    std::vector<SharedText> texts;
    std::size_t i = 0;
    for (const Json& element : bounded_array_at(root, "texts", "", m_limits.max_texts, "a plan"))
      texts.emplace_back(
          bounded_string(element, fmt::format("texts[{}]", i++), m_limits.max_text_bytes, "a file's text"));
    return texts;
  }

  gate::MeasureSide read_side(const Json& o, const std::string& path, const std::vector<SharedText>& texts) const {
    gate::MeasureSide side{name(o, "file", path), name(o, "kernel", path), {}};
    std::size_t i = 0;
    for (const Json& element : bounded_array_at(o, "files", path, m_limits.max_files, "a kernel to measure")) {
      const std::string at = fmt::format("{}.files[{}]", path, i++);
      const auto& file = as_object(element, at);
      const auto text = unsigned_at(file, "text", at);
      if (text >= texts.size()) malformed(at + ".text", fmt::format("an index into texts (it has {})", texts.size()));
      side.files.emplace_back(name(file, "path", at), texts[text]);
    }
    // Plans written before kforecast built units with nvcc have no build_arguments: NVRTC.
    if (!is_null(o, "build_arguments"))
      side.build_arguments = list(o, "build_arguments", path, m_limits.max_name_bytes, "an argument");
    return side;
  }

  void read_jobs(const Json& root, const std::vector<SharedText>& texts, Plan& plan) const {
    const std::size_t kernels = plan.report.kernels.size();
    std::size_t i = 0;
    for (const Json& element : bounded_array_at(root, "measure", "", m_limits.max_kernels, "a plan")) {
      const std::string path = fmt::format("measure[{}]", i++);
      const auto& o = as_object(element, path);
      gate::MeasureJob job;
      job.entry = unsigned_at(o, "id", path);
      if (job.entry >= kernels)
        malformed(path + ".id", fmt::format("an index into report.kernels (it has {})", kernels));
      for (const auto& seen : plan.jobs)
        if (seen.entry == job.entry) malformed(path + ".id", "each kernel once");
      job.complete = bool_at(o, "complete", path);
      if (job.complete) {
        job.base = read_side(object_at(o, "base", path), path + ".base", texts);
        job.head = read_side(object_at(o, "head", path), path + ".head", texts);
      }
      plan.jobs.push_back(std::move(job));
    }
    for (const Json& element : bounded_array_at(root, "to_measure", "", m_limits.max_kernels, "a plan")) {
      if (!element.is_number_unsigned() || element.get<std::uint64_t>() >= kernels)
        malformed("to_measure", "indices into report.kernels");
      plan.to_measure.push_back(element.get<std::size_t>());
    }
    if (plan.to_measure.size() != plan.jobs.size()) malformed("to_measure", "the kernels of `measure`, each once");
    for (const std::size_t index : plan.to_measure)
      if (std::ranges::find(plan.jobs, index, &gate::MeasureJob::entry) == plan.jobs.end())
        malformed("to_measure", "the kernels of `measure`, each once");
  }

  const PlanLimits& m_limits;
};

}  // namespace

Plan read_plan(const Json& root, const PlanLimits& limits) { return PlanReader(limits).read(root); }

}  // namespace kforecast::plan
