// SPDX-License-Identifier: Apache-2.0
#include "lint_run/lint_forecast.hpp"

#include <array>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "embedded/occupancy.hpp"
#include "forecasters/device_unit.hpp"
#include "kernels/revision_sources.hpp"

namespace kforecast::lint_run {
namespace {

std::optional<std::string> read_working_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool is_header(std::string_view path) { return kernels::is_cuda_source_path(path) && !path.ends_with(".cu"); }

// The rationale as note lines: one per line of its text, empty lines dropped.
std::vector<std::string> rationale_lines(const std::string& rationale) {
  std::vector<std::string> lines;
  std::istringstream in(rationale);
  for (std::string line; std::getline(in, line);)
    if (line.find_first_not_of(" \t") != std::string::npos) lines.push_back("forecast: " + line);
  return lines;
}

}  // namespace

const lint::Rule& forecast_rule() {
  static const lint::Rule rule{
      "forecast",
      lint::Severity::note,
      "the offline forecast of a changed kernel against its version at HEAD",
      "{match}",
      "https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/index.html#performance-metrics",
      "",
      "",
      {},
      "built-in"};
  return rule;
}

std::string bin_range(int bin) {
  static constexpr std::array<std::string_view, 8> ranges{"≤0.25",     "0.25–0.50", "0.50–0.71", "0.71–1.00",
                                                          "1.00–1.41", "1.41–2.00", "2.00–4.00", ">4.00"};
  return bin >= 1 && bin <= 8 ? std::string(ranges[static_cast<std::size_t>(bin - 1)]) : "?";
}

forecasters::EmbeddedForecaster lint_forecaster(const std::string& hardware, double tolerance) {
  embedded::FeatureContext context{nullptr, "sm_90", {}};
  if (auto gpu = embedded::find_gpu(hardware)) context.gpu = *gpu;
  return forecasters::EmbeddedForecaster(std::move(context), tolerance);
}

Result<LintForecasts> forecast_changed_kernels(const change::PrSources& sources,
                                               const std::map<std::string, std::string, std::less<>>& shown,
                                               const LintForecastSettings& settings, const forecasters::Forecaster& forecaster,
                                               const LaunchLookup& launch) {
  LintForecasts result;
  const kernels::RevisionSources base(sources.base_files);
  const kernels::RevisionSources head(sources.head_files);
  const auto analysis = kernel_changes::find_changed_kernels(base, head, sources.renames, sources.touched);

  std::vector<kernel_changes::KernelSite> sites;
  std::vector<forecasters::ForecastRequest> requests;
  forecasters::DeviceUnits base_units(base, settings.cuda_include), head_units(head, settings.cuda_include);
  for (const auto& kernel : analysis.kernels) {
    if (!kernel.head) continue;  // removed: nothing to forecast
    if (!kernel.base) {
      result.notes.push_back(fmt::format("{}: {} is new, so there is no earlier version to forecast against",
                                         kernel.head->file, kernel.head->qualified_name));
      continue;
    }
    sites.push_back(*kernel.head);
    std::optional<embedded::LaunchGeometry> geometry = launch ? launch(*kernel.head) : std::nullopt;
    requests.push_back({{base_units.text(*kernel.base), kernel.base->qualified_name, geometry},
                        {head_units.text(*kernel.head), kernel.head->qualified_name, geometry},
                        {}});
  }
  if (requests.empty()) return result;

  const auto gpu = embedded::find_gpu(settings.hardware);
  const std::string gpu_name = gpu && !gpu->name.empty() ? std::string(gpu->name) : settings.hardware;
  auto run = forecaster.forecast(requests);
  if (!run) return std::unexpected(run.error());

  for (std::size_t i = 0; i < sites.size(); ++i) {
    if (!run->kernels[i].forecast) {
      // The embedded forecaster always forecasts; another may say why it did not.
      if (!run->kernels[i].failure_note.empty()) result.notes.push_back(run->kernels[i].failure_note);
      continue;
    }
    const auto& forecast = *run->kernels[i].forecast;
    const kernel_changes::KernelSite& site = sites[i];
    const bool fails = forecast.p_regression > settings.fail_above;
    std::string message = fmt::format("forecast: speedup {} (bin {}, {}), P(regression) {:.2f}, confidence {:.2f}",
                                      bin_range(forecast.bin), forecast.bin, forecast.bin_label, forecast.p_regression,
                                      forecast.confidence);
    if (fails)
      message += fmt::format(
          ": a regression is likely (above lint.forecast_fail_confidence = {:.2f}); measure it "
          "with 'kforecast bench' before committing, or raise the bar",
          settings.fail_above);
    auto found = shown.find(site.file);
    lint::Diagnostic diagnostic{found == shown.end() ? site.file : found->second,
                                site.line,
                                1,
                                &forecast_rule(),
                                fails ? lint::Severity::error : lint::Severity::note,
                                std::move(message),
                                site.qualified_name,
                                rationale_lines(forecast.rationale)};
    diagnostic.notes.insert(diagnostic.notes.begin(), fmt::format("forecast: model {}", forecast.model));
    result.diagnostics.push_back(std::move(diagnostic));
  }
  result.notes.push_back(
      fmt::format("forecast: {} changed kernel(s) forecast offline from source features (no NVRTC, no network) for {}",
                  result.diagnostics.size(), gpu_name));
  return result;
}

Result<change::PrSources> read_worktree_sources(const git::Repository& repository,
                                        const std::vector<std::pair<std::string, std::string>>& files) {
  auto commit = repository.resolve("HEAD");
  if (!commit) return std::unexpected(commit.error());
  change::PrSources sources;
  sources.base_sha = commit->sha;
  sources.range_origin = "the named files against HEAD";
  auto tree = repository.list_tree(commit->sha);
  if (!tree) return std::unexpected(tree.error());
  std::vector<std::string> wanted;
  for (const auto& entry : *tree)
    if (is_header(entry.path) ||
        std::ranges::find(files, entry.path, &std::pair<std::string, std::string>::first) != files.end())
      wanted.push_back(entry.path);
  auto at_head = repository.read_files(commit->sha, wanted);
  if (!at_head) return std::unexpected(at_head.error());
  for (auto& [path, text] : *at_head) {
    if (!text) continue;
    sources.base_files.emplace(path, *text);
    if (is_header(path))  // the head side reads headers as the working tree has them
      if (auto working = read_working_file(repository.root() / path))
        sources.head_files.emplace(path, std::move(*working));
  }
  for (const auto& [path, text] : files) {
    sources.head_files[path] = text;
    auto base_text = sources.base_files.find(path);
    if (base_text == sources.base_files.end() || base_text->second != text) sources.touched.insert(path);
  }
  for (const auto& [path, text] : sources.head_files)
    if (is_header(path) && sources.base_files.contains(path) && sources.base_files.at(path) != text)
      sources.touched.insert(path);
  return sources;
}

}  // namespace kforecast::lint_run
