// SPDX-License-Identifier: Apache-2.0
#include "gate/plan_file.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/content_hash.hpp"
#include "base/json_string.hpp"
#include "gate/json_read.hpp"

namespace kforecast::gate {
namespace {

using namespace json_read;

// Shortest text that reads back as the same double.
std::string number(double value) { return fmt::format("{}", value); }

std::string strings(const std::vector<std::string>& values) {
  std::string json = "[";
  for (std::size_t i = 0; i < values.size(); ++i) json += (i ? ", " : "") + json_string(values[i]);
  return json + "]";
}

std::string forecast_json(const report::ForecastEntry& f) {
  std::string probabilities;
  for (std::size_t i = 0; i < f.probabilities.size(); ++i)
    probabilities += (i ? ", " : "") + number(f.probabilities[i]);
  return fmt::format(
      "{{\"forecaster\": {}, \"model\": {}, \"bin\": {}, \"bin_label\": {}, \"probabilities\": [{}], "
      "\"confidence\": {}, \"p_regression\": {}, \"rationale\": {}, \"raw_sum\": {}, \"prompt_version\": {}, "
      "\"cached\": {}, \"fallback_for\": {}, \"fallback_reason\": {}}}",
      json_string(f.forecaster), json_string(f.model), f.bin, json_string(f.bin_label), probabilities,
      number(f.confidence), number(f.p_regression), json_string(f.rationale), number(f.raw_sum),
      json_string(f.prompt_version), f.cached, json_string(f.fallback_for), json_string(f.fallback_reason));
}

std::string entry_json(const report::KernelEntry& e) {
  return fmt::format(
      "{{\"name\": {}, \"file\": {}, \"line\": {}, \"change\": \"{}\", \"decision\": \"{}\", \"verdict\": \"{}\", "
      "\"unverified\": {}, \"build\": {}, \"base_kernel\": {}, \"notes\": {}, \"forecast\": {}}}",
      json_string(e.name), json_string(e.file), e.line, report::to_string(e.change), report::to_string(e.decision),
      report::to_string(e.verdict), e.unverified, json_string(e.build), json_string(e.base_kernel), strings(e.notes),
      e.forecast ? forecast_json(*e.forecast) : "null");
}

// Each distinct text of the jobs once, by position: the jobs of a file's 1,000 kernels name one
// text rather than carry 1,000 copies of it.
class TextTable {
 public:
  std::size_t index(const SharedText& text) {
    const auto [at, fresh] = m_index.try_emplace(text, m_texts.size());
    if (fresh) m_texts.push_back(&at->first);
    return at->second;
  }
  std::string json() const {
    std::string json;
    for (std::size_t i = 0; i < m_texts.size(); ++i) json += (i ? ",\n  " : "\n  ") + json_string(m_texts[i]->view());
    return json;
  }

 private:
  std::map<SharedText, std::size_t> m_index;
  std::vector<const SharedText*> m_texts;
};

std::string side_json(const MeasureSide& side, TextTable& texts) {
  std::string files;
  for (std::size_t i = 0; i < side.files.size(); ++i)
    files += fmt::format("{}{{\"path\": {}, \"text\": {}}}", i ? ", " : "", json_string(side.files[i].first),
                         texts.index(side.files[i].second));
  return fmt::format("{{\"file\": {}, \"kernel\": {}, \"files\": [{}], \"build_arguments\": {}}}",
                     json_string(side.file), json_string(side.kernel), files,
                     side.build_arguments ? strings(*side.build_arguments) : "null");
}

template <typename Enum, std::size_t N>
Enum enum_at(const Json& object, std::string_view key, std::string_view path, const std::array<Enum, N>& values) {
  const std::string text = string_at(object, key, path);
  for (const Enum value : values)
    if (report::to_string(value) == text) return value;
  malformed(fmt::format("{}.{}", path, key), "one of the schema's values");
}

std::vector<std::string> strings_at(const Json& object, std::string_view key, std::string_view path) {
  std::vector<std::string> values;
  for (const Json& element : array_at(object, key, path))
    values.push_back(as_string(element, fmt::format("{}.{}", path, key)));
  return values;
}

report::ForecastEntry read_forecast(const Json& o, const std::string& path) {
  report::ForecastEntry f;
  f.forecaster = string_at(o, "forecaster", path);
  f.model = string_at(o, "model", path);
  const auto bin = unsigned_at(o, "bin", path);
  if (bin > 8) malformed(path + ".bin", "a bin number, 0 to 8");
  f.bin = static_cast<int>(bin);
  f.bin_label = string_at(o, "bin_label", path);
  std::size_t i = 0;
  for (const Json& element : array_at(o, "probabilities", path)) {
    if (i >= f.probabilities.size() || !element.is_number()) malformed(path + ".probabilities", "eight numbers");
    f.probabilities[i++] = element.get<double>();
  }
  if (i != f.probabilities.size()) malformed(path + ".probabilities", "eight numbers");
  f.confidence = number_at(o, "confidence", path);
  f.p_regression = number_at(o, "p_regression", path);
  f.rationale = string_at(o, "rationale", path);
  f.raw_sum = number_at(o, "raw_sum", path);
  f.prompt_version = string_at(o, "prompt_version", path);
  f.cached = bool_at(o, "cached", path);
  f.fallback_for = string_at(o, "fallback_for", path);
  f.fallback_reason = string_at(o, "fallback_reason", path);
  return f;
}

report::KernelEntry read_entry(const Json& o, const std::string& path) {
  using report::Change, report::Decision, report::KernelVerdict;
  report::KernelEntry e;
  e.name = string_at(o, "name", path);
  e.file = string_at(o, "file", path);
  const auto line = unsigned_at(o, "line", path);
  if (line > UINT32_MAX) malformed(path + ".line", "a line number");
  e.line = static_cast<std::uint32_t>(line);
  e.change = enum_at(o, "change", path, std::array{Change::modified, Change::added, Change::removed, Change::renamed});
  e.decision = enum_at(o, "decision", path,
                       std::array{Decision::identical_code, Decision::trusted_forecast, Decision::measured,
                                  Decision::forecast_only, Decision::skipped});
  e.verdict = enum_at(o, "verdict", path, std::array{KernelVerdict::pass, KernelVerdict::fail, KernelVerdict::warn});
  e.unverified = bool_at(o, "unverified", path);
  e.build = string_at(o, "build", path);
  if (!is_null(o, "base_kernel")) e.base_kernel = string_at(o, "base_kernel", path);  // absent in older plans
  e.notes = strings_at(o, "notes", path);
  if (!is_null(o, "forecast")) e.forecast = read_forecast(object_at(o, "forecast", path), path + ".forecast");
  return e;
}

MeasureSide read_side(const Json& o, const std::string& path, const std::vector<SharedText>& texts) {
  MeasureSide side{string_at(o, "file", path), string_at(o, "kernel", path), {}};
  std::size_t i = 0;
  for (const Json& element : array_at(o, "files", path)) {
    const std::string at = fmt::format("{}.files[{}]", path, i++);
    const auto& file = as_object(element, at);
    const auto text = unsigned_at(file, "text", at);
    if (text >= texts.size()) malformed(at + ".text", fmt::format("an index into texts (it has {})", texts.size()));
    side.files.emplace_back(string_at(file, "path", at), texts[text]);
  }
  // Plans written before kforecast built units with nvcc have no build_arguments: NVRTC.
  if (!is_null(o, "build_arguments")) side.build_arguments = strings_at(o, "build_arguments", path);
  return side;
}

Plan read_plan(const Json& root) {
  Plan plan;
  plan.kforecast_version = string_at(root, "kforecast", "");
  const auto& config = object_at(root, "config", "");
  plan.config_name = string_at(config, "name", "config");
  plan.config_text = string_at(config, "text", "config");
  plan.ledger = string_at(root, "ledger", "");
  plan.no_bench = bool_at(root, "no_bench", "");
  plan.shards = unsigned_at(root, "shards", "");

  const auto& r = object_at(root, "report", "");
  plan.report.version = string_at(r, "kforecast", "report");
  plan.report.base = string_at(r, "base", "report");
  plan.report.head = string_at(r, "head", "report");
  plan.report.verdict =
      enum_at(r, "verdict", "report",
              std::array{report::GateVerdict::pass, report::GateVerdict::fail, report::GateVerdict::inconclusive});
  plan.report.notes = strings_at(r, "notes", "report");
  // Optional: a plan without warnings (none, or written before they were recorded) has none.
  if (const Json* warnings = json_document::find(r, "warnings"); warnings != nullptr && warnings->is_array()) {
    std::size_t w = 0;
    for (const Json& element : *warnings) {
      const std::string path = fmt::format("report.warnings[{}]", w++);
      const auto& o = as_object(element, path);
      plan.report.warnings.push_back({string_at(o, "headline", path), string_at(o, "detail", path)});
    }
  }
  std::size_t i = 0;
  for (const Json& element : array_at(r, "kernels", "report")) {
    const std::string path = fmt::format("report.kernels[{}]", i++);
    plan.report.kernels.push_back(read_entry(as_object(element, path), path));
  }

  std::vector<SharedText> texts;
  i = 0;
  for (const Json& element : array_at(root, "texts", ""))
    texts.emplace_back(as_string(element, fmt::format("texts[{}]", i++)));
  i = 0;
  for (const Json& element : array_at(root, "measure", "")) {
    const std::string path = fmt::format("measure[{}]", i++);
    const auto& o = as_object(element, path);
    MeasureJob job;
    job.entry = unsigned_at(o, "id", path);
    if (job.entry >= plan.report.kernels.size())
      malformed(path + ".id", fmt::format("an index into report.kernels (it has {})", plan.report.kernels.size()));
    for (const auto& seen : plan.jobs)
      if (seen.entry == job.entry) malformed(path + ".id", "each kernel once");
    job.complete = bool_at(o, "complete", path);
    if (job.complete) {
      job.base = read_side(object_at(o, "base", path), path + ".base", texts);
      job.head = read_side(object_at(o, "head", path), path + ".head", texts);
    }
    plan.jobs.push_back(std::move(job));
  }
  for (const Json& element : array_at(root, "to_measure", "")) {
    if (!element.is_number_unsigned() || element.get<std::uint64_t>() >= plan.report.kernels.size())
      malformed("to_measure", "indices into report.kernels");
    plan.to_measure.push_back(element.get<std::size_t>());
  }
  if (plan.to_measure.size() != plan.jobs.size()) malformed("to_measure", "the kernels of `measure`, each once");
  for (const std::size_t index : plan.to_measure)
    if (std::ranges::find(plan.jobs, index, &MeasureJob::entry) == plan.jobs.end())
      malformed("to_measure", "the kernels of `measure`, each once");
  return plan;
}

}  // namespace

std::string plan_json(const Plan& plan) {
  const auto& r = plan.report;
  std::string kernels;
  for (std::size_t i = 0; i < r.kernels.size(); ++i) kernels += (i ? ",\n    " : "\n    ") + entry_json(r.kernels[i]);
  std::string measure;
  TextTable texts;
  for (std::size_t i = 0; i < plan.jobs.size(); ++i) {
    const auto& job = plan.jobs[i];
    measure += fmt::format("{}{{\"id\": {}, \"kernel\": {}, \"complete\": {}", i ? ",\n  " : "\n  ", job.entry,
                           json_string(r.kernels[job.entry].name), job.complete);
    if (job.complete)
      measure += fmt::format(", \"base\": {}, \"head\": {}", side_json(job.base, texts), side_json(job.head, texts));
    measure += "}";
  }
  std::string warnings;
  for (std::size_t i = 0; i < r.warnings.size(); ++i)
    warnings += fmt::format("{}{{\"headline\": {}, \"detail\": {}}}", i ? ", " : "",
                            json_string(r.warnings[i].headline), json_string(r.warnings[i].detail));
  std::string to_measure;
  for (std::size_t i = 0; i < plan.to_measure.size(); ++i)
    to_measure += fmt::format("{}{}", i ? ", " : "", plan.to_measure[i]);
  return fmt::format(
      "{{\"kforecast_plan\": {}, \"kforecast\": {}, \"shards\": {}, \"no_bench\": {}, \"ledger\": {},\n"
      " \"config\": {{\"name\": {}, \"text\": {}}},\n"
      " \"report\": {{\"kforecast\": {}, \"base\": {}, \"head\": {}, \"verdict\": \"{}\", \"notes\": {},\n"
      "  \"warnings\": [{}],\n"
      "  \"kernels\": [{}]}},\n"
      " \"to_measure\": [{}],\n"
      " \"texts\": [{}],\n"
      " \"measure\": [{}]}}\n",
      plan_schema_version, json_string(plan.kforecast_version), plan.shards, plan.no_bench, json_string(plan.ledger),
      json_string(plan.config_name), json_string(plan.config_text), json_string(r.version), json_string(r.base),
      json_string(r.head), report::to_string(r.verdict), strings(r.notes), warnings, kernels, to_measure, texts.json(),
      measure);
}

Result<Plan> parse_plan_json(std::string_view text, std::string_view name) {
  auto document = json_document::parse(text);
  if (!document)
    return usage_error(fmt::format("{}: not a kforecast plan: not JSON ({}); write one with `kforecast pr --plan {}`",
                                   name, document.error(), name));
  const Json& root = *document;
  if (!root.is_object()) return usage_error(fmt::format("{}: not a kforecast plan (not a JSON object)", name));
  try {
    const auto& object = as_object(root, "the plan");
    const Json* tag = json_document::find(object, "kforecast_plan");
    if (tag == nullptr)
      return usage_error(
          fmt::format("{}: not a kforecast plan (no \"kforecast_plan\" key); write one with "
                      "`kforecast pr --plan {}`",
                      name, name));
    if (!tag->is_number_unsigned() || tag->get<std::uint64_t>() != plan_schema_version)
      return usage_error(
          fmt::format("{}: plan schema {} is not the one this kforecast reads ({}); make the plan "
                      "and read it with the same kforecast version",
                      name, json_document::compact(*tag), plan_schema_version));
    return read_plan(object);
  } catch (const JsonFieldError& error) {
    return usage_error(fmt::format("{}: malformed plan: {}", name, error.message));
  }
}

Result<config::Config> plan_config(const Plan& plan, const EnvLookup& env) {
  auto parsed = config::parse_config(plan.config_text, plan.config_name);
  if (!parsed) return std::unexpected(parsed.error());
  return config::apply_environment(std::move(*parsed), env);
}

std::string plan_hash(std::string_view text) {
  ContentHasher hasher;
  hasher.add(text);
  return hasher.hex();
}

std::vector<MeasureJob> shard_jobs(const Plan& plan, std::size_t index, std::size_t count) {
  std::vector<MeasureJob> jobs;
  for (std::size_t i = index - 1; i < plan.jobs.size(); i += count) jobs.push_back(plan.jobs[i]);
  return jobs;
}

}  // namespace kforecast::gate
