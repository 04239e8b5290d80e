// SPDX-License-Identifier: Apache-2.0
#include "lint_run/lint_run.hpp"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "context/project_contexts.hpp"
#include "context/torch_context.hpp"
#include "kforecast_version.hpp"
#include "lint/suppression.hpp"
#include "lint_run/lint_compiler_facts.hpp"
#include "lint_run/lint_forecast.hpp"
#include "lint_run/lint_inputs.hpp"
#include "lint_run/lint_launch_facts.hpp"
#include "lint_run/lint_rules.hpp"

namespace kforecast::lint_run {
namespace {

// NVRTC facts for the .cu files (headers are compiled as part of the files that include them).
// `work_tree`: where the compiler's missing headers may be read from (none for the index).
// Each .cu file with the compile context `pr` would build it with (context/project_contexts.hpp):
// the project's compile database, compile.*, or inferred from the files read.
std::vector<FactsRequest> facts_requests(const config::Config& config, const LintInputs& inputs,
                                         const std::filesystem::path& root,
                                         const std::optional<std::filesystem::path>& work_tree,
                                         const std::string& arch, lint::LintReport& report) {
  std::vector<FactsRequest> requests;
  kernels::SourceFiles tree;
  for (const auto& input : inputs.files)
    if (input.relative.ends_with(".cu")) {
      requests.push_back(
          {input.relative, input.text, local_headers(input, inputs.read), {}, input.added ? &*input.added : nullptr});
      tree.emplace(input.relative, input.text);
      for (const auto& header : requests.back().headers) tree.emplace(header.include_name, header.text);
    }
  if (requests.empty()) return requests;
  const context::ProjectContexts contexts(root, config.string_value("compile.database"), config, arch);
  const kernels::RevisionSources sources(tree);
  // A PyTorch extension's files that include torch's headers: NVRTC compiles device code alone and
  // cannot read them, and where torch's headers are missing nothing could.
  std::size_t torch_files = 0;
  std::erase_if(requests, [&](const FactsRequest& file) {
    const bool torch = !contexts.context_of(file.path, sources).unavailable.empty() ||
                       (contexts.torch_found() && context::torch_header_reached(sources, file.path));
    torch_files += torch ? 1 : 0;
    return torch;
  });
  if (torch_files > 0)
    report.rules_not_run.push_back(fmt::format(
        "compiler facts not gathered for {} file{} that include{} PyTorch's headers (register, spill and stack rules "
        "skipped there): {}",
        torch_files, torch_files == 1 ? "" : "s", torch_files == 1 ? "s" : "",
        contexts.torch_found() ? "NVRTC compiles device code alone and cannot read them" : contexts.torch_missing()));
  for (auto& file : requests) {
    const context::CompileContext found = contexts.context_of(file.path, sources);
    // Repository folders are searched in the work tree by the include confinement; the index
    // (--staged) has none on disk, so there only the headers read from it are found.
    for (const auto& dir : found.include_dirs)
      if (work_tree || std::filesystem::path(dir).is_absolute()) file.include_dirs.push_back(dir);
    file.options = context::nvrtc_options(found);
  }
  for (const auto& note : contexts.notes()) report.notes.push_back(note);
  return requests;
}

// "compiler facts unavailable" once for the run, the first file's reason and the fix, rather
// than a line per file.
std::string facts_unavailable(const std::vector<std::string>& not_compiled) {
  std::string line = not_compiled.front();
  if (not_compiled.size() > 1) line += fmt::format(" (and {} more file{})", not_compiled.size() - 1,
                                                   not_compiled.size() == 2 ? "" : "s");
  return line + "; to compile them as the project does, give kforecast its compile_commands.json "
                "(cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON) or the compile.* settings";
}

FactsResult nvrtc_facts(const config::Config& config, const LintInputs& inputs, const std::filesystem::path& root,
                        const std::optional<std::filesystem::path>& work_tree, const LintRequest& request,
                        lint::LintReport& report) {
  if (!config.boolean_value("lint.compiler_facts")) return {};
  if (std::ranges::none_of(inputs.files, [](const LintInput& input) { return input.relative.ends_with(".cu"); }))
    return {};
  auto compiler = request.compiler ? request.compiler(work_tree)
                                  : std::unexpected(cuda::Unavailable{"no compiler is offered here", "", "", {}});
  if (!compiler) {
    report.rules_not_run.push_back("compiler facts not gathered (register, spill and stack rules skipped): " +
                                   compiler.error().message());
    return {};
  }
  // "auto" would mean initialising the GPU driver to ask the local GPU, which can take a second:
  // too slow for a pre-commit hook, so the lint takes the gate's fallback target.
  std::string arch = config.string_value("cuda.arch");
  if (arch == "auto") arch = "sm_90";
  const std::vector<FactsRequest> requests = facts_requests(config, inputs, root, work_tree, arch, report);
  report.notes.push_back(fmt::format("compiler facts for {} from NVRTC {}", arch, (*compiler)->version().text()));
  if (request.sandbox != nullptr && !request.sandbox->missing().empty())
    report.notes.push_back(fmt::format("not confined: NVRTC compiled these files without the whole sandbox ({})",
                                       request.sandbox->missing()));
  auto facts = gather_compiler_facts(**compiler, requests, arch, request.facts_cache, request.cuda_include_dir);
  if (!facts.not_compiled.empty()) report.rules_not_run.push_back(facts_unavailable(facts.not_compiled));
  return facts;
}

// The offline forecast of each changed kernel: staged changes against HEAD, or the named files
// (as the working tree has them) against HEAD. Outside a repository, or before the first commit,
// there is no earlier version: a note says so.
Result<LintForecasts> lint_forecasts(
    const config::Config& config, const LintInputs& inputs, const LintRequest& request,
    const std::filesystem::path& root,
    const std::map<std::pair<std::string, std::string>, embedded::LaunchGeometry>& geometry) {
  LintForecasts none;
  const git::Repository* repository = request.staged != nullptr ? request.staged : request.files_repository;
  if (repository == nullptr) {
    none.notes.push_back("forecast not run: the files are not in a git repository, so there is no earlier version");
    return none;
  }
  if (!repository->resolve("HEAD")) {
    none.notes.push_back("forecast not run: no commit yet (HEAD), so no kernel has an earlier version");
    return none;
  }
  Result<change::PrSources> sources;
  std::map<std::string, std::string, std::less<>> shown;
  if (request.staged != nullptr) {
    auto head = repository->resolve("HEAD");
    sources = change::read_pr_sources(*repository, head->sha, "", "staged changes against HEAD", inputs.diff_text);
    if (sources) change::add_submodule_sources(*repository, *sources);
  } else {
    std::vector<std::pair<std::string, std::string>> files;
    std::error_code ec;
    const auto repository_root = std::filesystem::weakly_canonical(repository->root(), ec);
    for (const auto& input : inputs.files) {
      const auto relative =
          std::filesystem::weakly_canonical(root / input.relative, ec).lexically_relative(repository_root);
      if (relative.empty() || relative.begin()->string() == "..") continue;
      files.emplace_back(relative.generic_string(), input.text);
      shown[relative.generic_string()] = input.shown;
    }
    sources = read_worktree_sources(*repository, files);
  }
  if (!sources) return std::unexpected(sources.error());
  const LintForecastSettings settings{config.number_value("lint.forecast_fail_confidence"),
                                      config.string_value("forecast.hardware"), request.cuda_include_dir};
  // Launch features where a spec gives the launch (paths as the lint knows them: relative to the
  // config's directory, which is the repository root in the usual layout).
  const auto launch = [&](const kernel_changes::KernelSite& site) -> std::optional<embedded::LaunchGeometry> {
    auto it = geometry.find({site.file, site.qualified_name});
    if (it == geometry.end()) return std::nullopt;
    return it->second;
  };
  return forecast_changed_kernels(*sources, shown, settings, *request.forecaster, launch);
}

// The line `line` (1-based) of `text`, without its newline; "" past the end.
std::string_view line_of(std::string_view text, std::uint32_t line) {
  for (std::uint32_t at = 1; at < line && !text.empty(); ++at) {
    const auto newline = text.find('\n');
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
  }
  return text.substr(0, text.find('\n'));
}

}  // namespace

Result<LintRun> run_lint(const config::Config& config, const LintRequest& request) {
  const bool staged = request.staged != nullptr;
  std::filesystem::path root = config_root(config);
  if (staged && !config.file()) root = request.staged->root();
  auto inputs = staged ? staged_lint_inputs(*request.staged) : file_lint_inputs(request.files, root);
  if (!inputs) return std::unexpected(inputs.error());
  auto rules = configured_rules(config);
  if (!rules) return std::unexpected(rules.error());
  auto ignored =
      lint::PathSuppressions::parse(std::get<std::vector<std::string>>(config.setting("lint.ignore_paths").value));
  if (!ignored) return std::unexpected(ignored.error());

  LintRun run{std::move(*rules), {}, {std::string(kforecast::version), {}, {}, {}, {}}};
  // Every rule a diagnostic can carry, for SARIF's rule table: the configured ones, then the
  // forecast's and the launch specs' pseudo-rules.
  run.every_rule.assign(run.rules.rules().begin(), run.rules.rules().end());
  run.every_rule.push_back(forecast_rule());
  run.every_rule.push_back(launch_spec_rule());
  run.report.rules = run.every_rule;
  lint::LintReport& report = run.report;

  const FactsResult facts =
      nvrtc_facts(config, *inputs, root, staged ? std::nullopt : std::optional(root), request, report);
  std::map<std::string, lint::FactsByKernel, std::less<>> facts_by_path = facts.by_path;

  std::vector<LaunchFile> launch_files;
  for (const auto& input : inputs->files) {
    auto found = facts.by_path.find(input.relative);
    launch_files.push_back(
        {input.shown, input.relative, input.text, found == facts.by_path.end() ? nullptr : &found->second});
  }
  auto launch = gather_launch_facts(
      launch_files, {config.source_text(), config.source_name(), config.string_value("forecast.hardware")});
  if (!launch) return std::unexpected(launch.error());
  for (auto& [path, kernels] : launch->by_path)
    for (auto& [name, kernel] : kernels) facts_by_path[path][name].launch = std::move(kernel.launch);
  report.notes.insert(report.notes.end(), launch->notes.begin(), launch->notes.end());

  // Diagnostics made outside the rules (forecasts, spec problems) honour the same suppressions.
  std::map<std::string, const LintInput*, std::less<>> by_shown;
  for (const auto& input : inputs->files) by_shown[input.shown] = &input;
  const auto keep_extra = [&](lint::Diagnostic& diagnostic, const std::string& relative) {
    if (ignored->suppressed(relative, diagnostic.rule->id)) return;
    if (auto it = by_shown.find(diagnostic.path); it != by_shown.end() && diagnostic.line > 0)
      if (lint::suppressed_on_line(line_of(it->second->text, diagnostic.line), diagnostic.rule->id)) return;
    report.diagnostics.push_back(std::move(diagnostic));
  };

  for (const auto& input : inputs->files) {
    auto found = facts_by_path.find(input.relative);
    const lint::LintOptions options{found == facts_by_path.end() ? nullptr : &found->second,
                                    input.added ? &*input.added : nullptr};
    for (auto& diagnostic : lint::lint_source(input.shown, input.text, run.rules.rules(), options))
      if (!ignored->suppressed(input.relative, diagnostic.rule->id))
        report.diagnostics.push_back(std::move(diagnostic));
  }
  std::map<std::string, std::string, std::less<>> relative_of;
  for (const auto& input : inputs->files) relative_of[input.shown] = input.relative;
  for (auto& diagnostic : launch->diagnostics) keep_extra(diagnostic, relative_of[diagnostic.path]);

  if (request.forecaster == nullptr) {
    report.notes.push_back("forecast not run: --no-forecast");
  } else {
    auto forecasts = lint_forecasts(config, *inputs, request, root, launch->geometry);
    if (!forecasts) return std::unexpected(forecasts.error());
    report.notes.insert(report.notes.end(), forecasts->notes.begin(), forecasts->notes.end());
    for (auto& diagnostic : forecasts->diagnostics) {
      auto relative = relative_of.find(diagnostic.path);
      keep_extra(diagnostic, relative == relative_of.end() ? diagnostic.path : relative->second);
    }
  }
  // Files in the order given, then by place; a forecast comes after the rules on its line.
  std::map<std::string, std::size_t, std::less<>> order;
  for (const auto& input : inputs->files) order.emplace(input.shown, order.size());
  std::ranges::stable_sort(report.diagnostics, [&](const lint::Diagnostic& a, const lint::Diagnostic& b) {
    const auto rank = [&](const std::string& path) {
      auto it = order.find(path);
      return it == order.end() ? order.size() : it->second;
    };
    return std::tuple(rank(a.path), a.path, a.line) < std::tuple(rank(b.path), b.path, b.line);
  });
  return run;
}

}  // namespace kforecast::lint_run
