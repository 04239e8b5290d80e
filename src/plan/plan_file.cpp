// SPDX-License-Identifier: Apache-2.0
#include "plan/plan_file.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/content_hash.hpp"
#include "base/json_string.hpp"
#include "base/text_file.hpp"
#include "plan/json_read.hpp"
#include "plan/plan_arguments.hpp"
#include "plan/plan_read.hpp"

namespace kforecast::plan {
namespace {

using namespace json_read;

// Shortest text that reads back as the same double.
std::string number(double value) { return fmt::format("{}", value); }

std::string strings(const std::vector<std::string>& values) {
  std::string json = "[";
  for (std::size_t i = 0; i < values.size(); ++i) json += (i ? ", " : "") + json_string(values[i]);
  return json + "]";
}

// A note, a rationale, a warning or a build line as JSON, cut where it is longer than a plan may
// hold (a compile log quoting minified source), so the jobs that read the plan accept it.
std::string note_json(std::string_view text) {
  constexpr std::size_t limit = PlanLimits{}.max_note_bytes;
  if (text.size() <= limit) return json_string(text);
  const std::string marker = fmt::format(" ... ({} bytes cut for the plan)", text.size());
  std::size_t keep = limit - marker.size();
  while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xc0) == 0x80) --keep;  // not inside a character
  return json_string(std::string(text.substr(0, keep)) + marker);
}

std::string notes_json(const std::vector<std::string>& values) {
  std::string json = "[";
  for (std::size_t i = 0; i < values.size(); ++i) json += (i ? ", " : "") + note_json(values[i]);
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
      number(f.confidence), number(f.p_regression), note_json(f.rationale), number(f.raw_sum),
      json_string(f.prompt_version), f.cached, json_string(f.fallback_for), note_json(f.fallback_reason));
}

std::string entry_json(const report::KernelEntry& e) {
  return fmt::format(
      "{{\"name\": {}, \"file\": {}, \"line\": {}, \"change\": \"{}\", \"decision\": \"{}\", \"verdict\": \"{}\", "
      "\"unverified\": {}, \"build\": {}, \"base_kernel\": {}, \"notes\": {}, \"forecast\": {}}}",
      json_string(e.name), json_string(e.file), e.line, report::to_string(e.change), report::to_string(e.decision),
      report::to_string(e.verdict), e.unverified, note_json(e.build), json_string(e.base_kernel), notes_json(e.notes),
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

std::string side_json(const gate::MeasureSide& side, TextTable& texts) {
  std::string files;
  for (std::size_t i = 0; i < side.files.size(); ++i)
    files += fmt::format("{}{{\"path\": {}, \"text\": {}}}", i ? ", " : "", json_string(side.files[i].first),
                         texts.index(side.files[i].second));
  return fmt::format("{{\"file\": {}, \"kernel\": {}, \"files\": [{}], \"build_arguments\": {}}}",
                     json_string(side.file), json_string(side.kernel), files,
                     side.build_arguments ? strings(*side.build_arguments) : "null");
}

std::unexpected<Error> too_large(std::string_view name, std::uintmax_t size, const PlanLimits& limits) {
  return usage_error(
      fmt::format("{}: plan refused: it is {} bytes, more than the {} MiB a plan may be (security.max_plan_mib of "
                  "this job's config, or KFORECAST_MAX_PLAN_MIB): a plan past it was altered, or is of a change too "
                  "large to split across jobs",
                  name, size, limits.max_bytes >> 20));
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
                            note_json(r.warnings[i].headline), note_json(r.warnings[i].detail));
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
      json_string(r.head), report::to_string(r.verdict), notes_json(r.notes), warnings, kernels, to_measure, texts.json(),
      measure);
}

Result<Plan> parse_plan_json(std::string_view text, std::string_view name, const PlanLimits& limits) {
  if (text.size() > limits.max_bytes) return too_large(name, text.size(), limits);
  auto root = tagged_document(text, name,
                              {"a kforecast plan", "kforecast_plan", "plan", plan_schema_version,
                               "write one with `kforecast pr --plan {name}`",
                               "make the plan and read it with the same kforecast version"});
  if (!root) return std::unexpected(root.error());
  try {
    const auto& object = as_object(*root, "the plan");
    Plan plan = read_plan(object, limits);
    if (auto arguments = check_plan_arguments(plan, name); !arguments) return std::unexpected(arguments.error());
    return plan;
  } catch (const JsonFieldError& error) {
    return usage_error(fmt::format("{}: malformed plan: {}", name, error.message));
  } catch (const JsonLimitError& error) {
    return usage_error(
        fmt::format("{}: plan refused: {}: a plan past these limits was altered, or is of a change too large to "
                    "split across jobs (review it in one `kforecast pr` run)",
                    name, error.message));
  }
}

Result<PlanFile> read_plan_file(const std::string& path, const PlanLimits& limits) {
  std::error_code error;
  if (const auto size = std::filesystem::file_size(path, error); !error && size > limits.max_bytes)
    return too_large(path, size, limits);
  auto text = read_text_file(path, "plan", limits.max_bytes);
  if (!text) return std::unexpected(text.error());
  auto plan = parse_plan_json(*text, path, limits);
  if (!plan) return std::unexpected(plan.error());
  return PlanFile{std::move(*plan), plan_hash(*text)};
}

std::string plan_hash(std::string_view text) {
  ContentHasher hasher;
  hasher.add(text);
  return hasher.hex();
}

std::vector<gate::MeasureJob> shard_jobs(const Plan& plan, std::size_t index, std::size_t count) {
  std::vector<gate::MeasureJob> jobs;
  for (std::size_t i = index - 1; i < plan.jobs.size(); i += count) jobs.push_back(plan.jobs[i]);
  return jobs;
}

}  // namespace kforecast::plan
