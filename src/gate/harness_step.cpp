// SPDX-License-Identifier: Apache-2.0
#include "gate/harness_step.hpp"

#include <algorithm>
#include <cctype>
#include <deque>
#include <optional>

#include <fmt/format.h>

#include "base/content_hash.hpp"
#include "bench/kernel_source.hpp"
#include "bench/launch_spec_reader.hpp"
#include "measure/learned_harness_map.hpp"
#include "harness/harness_config.hpp"
#include "policy/ledger.hpp"

namespace kforecast::gate {
namespace {

bool is_commit(const std::string& revision) {
  return revision.size() >= 7 && revision.size() <= 64 &&
         std::ranges::all_of(revision, [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

bool side_has_spec(const MeasureSide& side, const std::vector<bench::LaunchSpec>& config_specs) {
  const auto file = std::ranges::find(side.files, side.file, &std::pair<std::string, SharedText>::first);
  if (file == side.files.end()) return false;
  auto kernel = bench::prepare_kernel({side.file + ":" + side.kernel, side.file, std::string(file->second.view())},
                                      side.kernel, [](std::string_view) { return true; });
  if (!kernel) return bench::find_spec(config_specs, side.kernel, side.file) != nullptr;
  return kernel->comment_spec || bench::find_spec(config_specs, kernel->name_expression, side.file) != nullptr;
}

// The hash of one side's texts, as the GPU path records it for the ledger.
std::string side_hash(const MeasureSide& side) {
  ContentHasher hasher;
  for (const auto& [file, text] : side.files) {
    hasher.add(file);
    hasher.add(text.view());
  }
  return hasher.hex();
}

// The harnesses without maps, their maps learned by capture at the base revision the first time
// a kernel needs one (measure/learned_harness_map.hpp); the maps made for each kernel live here.
class LearnedChoices {
 public:
  LearnedChoices(const std::vector<harness::Harness>& harnesses, std::filesystem::path repository, GateRun& run,
                 Outside& outside)
      : m_harnesses(harnesses), m_repository(std::move(repository)), m_run(run), m_outside(outside),
        m_learned(harnesses.size()) {}

  std::optional<harness::HarnessChoice> choice_for(const std::string& kernel) {
    for (std::size_t i = 0; i < m_harnesses.size(); ++i) {
      const harness::Harness& harness = m_harnesses[i];
      if (!harness.maps.empty() || harness.list.empty()) continue;
      const measure::LearnedMap* map = learned(i);
      if (map == nullptr) continue;
      auto benchmarks = benchmarks_launching(*map, kernel);
      if (benchmarks.empty()) continue;
      m_maps.push_back({{kernel}, harness::filter_selecting(harness.format, benchmarks),
                        fmt::format("learned by capture: {}", map->file.string())});
      return harness::HarnessChoice{&harness, &m_maps.back()};
    }
    return std::nullopt;
  }

 private:
  const measure::LearnedMap* learned(std::size_t index) {
    auto& slot = m_learned[index];
    if (!slot) {
      slot = learn(m_harnesses[index]);
      if (!*slot)
        m_run.notes.push_back(fmt::format("harness '{}' has no [[harness.map]] and its map was not learned: {}",
                                          m_harnesses[index].name, slot->error().message));
      else
        m_run.notes.push_back(fmt::format("harness '{}': map learned by capture at the base revision{} ({} "
                                          "benchmark-kernel pairs): {}",
                                          m_harnesses[index].name, (*slot)->reused ? ", read from the cache" : "",
                                          (*slot)->launches.size(), (*slot)->file.string()));
    }
    return *slot ? &**slot : nullptr;
  }

  Result<measure::LearnedMap> learn(const harness::Harness& harness) {
    if (auto why = m_outside.gpu.unavailable()) return usage_error(*why);
    if (!m_outside.project.shell || !m_outside.project.capture_library)
      return usage_error("this command does not run project programs under the capture library");
    auto library = m_outside.project.capture_library();
    if (!library) return std::unexpected(library.error());
    const auto& trees = m_outside.project.trees;
    if (!trees) return usage_error("no cache folder (set HOME or XDG_CACHE_HOME)");
    return measure::learn_harness_map({harness, m_repository, m_run.base, *trees, trees->parent_path() / "learned", *library,
                              m_outside.env},
                             m_outside.project.shell);
  }

  const std::vector<harness::Harness>& m_harnesses;
  std::filesystem::path m_repository;
  GateRun& m_run;
  Outside& m_outside;
  std::vector<std::optional<Result<measure::LearnedMap>>> m_learned;
  std::deque<harness::BenchmarkMap> m_maps;  // stable addresses for the choices
};

}  // namespace

bool has_launch_spec(const MeasureJob& job, const config::Config& config) {
  std::vector<bench::LaunchSpec> config_specs;
  if (!config.source_text().empty())
    if (auto specs = bench::read_config_specs(config.source_text(), config.source_name())) config_specs = *specs;
  return side_has_spec(job.base, config_specs) || side_has_spec(job.head, config_specs);
}

HarnessOutcome measure_through_harness(GateRun& run, std::span<const MeasureJob> jobs,
                                       const std::filesystem::path& ledger, const Settings& settings,
                                       Outside& outside, const MeasureObserver& observe) {
  HarnessOutcome result;
  const config::Config& config = settings.config;
  auto harnesses = harness::read_harnesses(config.source_text(), config.source_name());
  const bool none = !harnesses || harnesses->empty();
  if (!harnesses) run.notes.push_back(fmt::format("[[harness]] not used: {}", harnesses.error().message));
  if (none || !outside.project.harness) {
    result.others.assign(jobs.begin(), jobs.end());
    return result;
  }
  // The harness builds revisions, so it needs commits: not the index, a work tree or a patch.
  const bool commits = is_commit(run.base) && is_commit(run.head);
  std::vector<std::size_t> entries;
  std::vector<harness::HarnessChoice> choices(run.cases.size());
  LearnedChoices learned(*harnesses, settings.compile.repository_root, run, outside);
  for (const MeasureJob& job : jobs) {
    const auto& entry = run.cases[job.entry].entry;
    auto choice = harness::harness_for(*harnesses, entry.file, entry.name);
    if (!choice && commits && job.complete && !has_launch_spec(job, config)) choice = learned.choice_for(entry.name);
    if (!choice || !job.complete || has_launch_spec(job, config)) {
      result.others.push_back(job);
      continue;
    }
    if (!commits) {
      run.notes.push_back(fmt::format("{}: harness '{}' not used: it builds revisions, and {} against {} are not "
                                      "both commits",
                                      entry.name, choice->harness->name, run.head, run.base));
      result.others.push_back(job);
      continue;
    }
    choices[job.entry] = *choice;
    entries.push_back(job.entry);
  }
  if (entries.empty()) return result;

  const auto& cache = outside.project.trees;
  policy::LedgerEntry ledger_run;
  ledger_run.kforecast_version = run.version;
  ledger_run.recorded = outside.now();
  ledger_run.base = run.base;
  ledger_run.head = run.head;
  const MeasureKernel measure = [&](std::size_t index) -> Result<bench::Measurement> {
    const auto& entry = run.cases[index].entry;
    const auto& choice = choices[index];
    const auto& job = *std::ranges::find(jobs, index, &MeasureJob::entry);
    auto measurement = [&]() -> Result<bench::Measurement> {
      if (!cache) return usage_error("harness: no cache folder for its worktrees (set HOME or XDG_CACHE_HOME)");
      auto measured = outside.project.harness(
          {*choice.harness, *choice.map, settings.compile.repository_root, run.base, run.head, *cache,
           settings.tolerance, config.number_value("bench.confidence")},
          [&](std::string_view line) { outside.console.detail(fmt::format("{}: {}", entry.name, line)); });
      if (!measured)
        return fail(measured.error().exit_code,
                    fmt::format("the project's harness could not measure it: {}", measured.error().message));
      return measured;
    }();
    if (measurement) {
      auto line = ledger_entry(entry, *measurement, ledger_run);
      line.reference_hash = side_hash(job.base);
      line.candidate_hash = side_hash(job.head);
      if (auto appended = policy::append_to_ledger(ledger, line); !appended)
        run.notes.push_back(fmt::format("ledger not written: {}", appended.error().message));
    }
    if (observe) observe(index, measurement);
    return measurement;
  };
  result.outcome = measure_kernels(run.cases, entries, settings.measure, measure, &outside.deadline);
  if (result.outcome.measured > 0)
    run.notes.push_back(fmt::format("measured {} kernel{} through the project's harness; ledger: {}",
                                    result.outcome.measured, result.outcome.measured == 1 ? "" : "s", ledger.string()));
  return result;
}

}  // namespace kforecast::gate
