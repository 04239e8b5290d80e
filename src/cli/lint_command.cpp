// SPDX-License-Identifier: Apache-2.0
// `kforecast lint [--staged | FILE...]`: the performance lint, for a pre-commit hook or by hand.
// With --staged it lints what `git commit` would record and reports only on the added lines;
// with files it lints them whole. Each changed kernel is also forecast offline against HEAD
// (gate/lint_forecast.hpp). Exit 1 when a rule of severity error fires or a forecast gives a
// regression a probability above lint.forecast_fail_confidence.

#include <unistd.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "cuda/library_search.hpp"

#include "base/redaction.hpp"
#include "base/repository_file.hpp"
#include "gate/compiler_loading.hpp"
#include "cli/handlers.hpp"
#include "gate/lint_compiler_facts.hpp"
#include "gate/lint_forecast.hpp"
#include "gate/lint_hook.hpp"
#include "gate/lint_launch_facts.hpp"
#include "gate/lint_rules.hpp"
#include "cuda/nvrtc.hpp"
#include "diff/unified_diff.hpp"
#include "git/repository.hpp"
#include "kernels/revision_sources.hpp"
#include "kforecast_version.hpp"
#include "lint/diagnostic_writer.hpp"
#include "lint/suppression.hpp"
#include "policy/ptx_cache.hpp"

namespace kforecast::cli {
namespace {

// Larger files are not lint input: they are generated or data, and would cost memory for nothing.
constexpr std::size_t max_lint_file_bytes = std::size_t{16} << 20;

// One file to lint: its name in diagnostics, its path relative to the config root (for
// lint.ignore_paths), its text, and the added lines (none: the whole file).
struct LintInput {
  std::string shown;
  std::string relative;
  std::string text;
  std::optional<std::vector<std::uint32_t>> added;
};

// Headers a file includes with quotes, resolved like the pr gate does: beside the file, then
// from the root, read through `read` (the index or the disk); two levels deep.
using ReadFiles = std::function<std::map<std::string, std::string, std::less<>>(const std::vector<std::string>&)>;

std::vector<cuda::SourceHeader> local_headers(const LintInput& input, const ReadFiles& read) {
  std::vector<cuda::SourceHeader> headers;
  std::vector<std::pair<std::string, std::string>> pending{{input.relative, input.text}};
  for (int depth = 0; depth < 2 && !pending.empty(); ++depth) {
    std::vector<std::string> wanted;
    std::vector<std::string> spelled;
    for (const auto& [path, text] : pending)
      for (const auto& include : kernels::scan_cuda_source(text).includes) {
        if (include.angled) continue;
        const auto directory = std::filesystem::path(path).parent_path();
        for (const auto& candidate : {(directory / include.path).lexically_normal().generic_string(),
                                      std::filesystem::path(include.path).lexically_normal().generic_string()}) {
          // A path that climbs out of the repository names no file of it, and one such name
          // makes git refuse the whole batch of index reads.
          if (candidate.starts_with("../") || candidate == "..") continue;
          wanted.push_back(candidate);
          spelled.push_back(include.path);
        }
      }
    const auto found = read(wanted);
    pending.clear();
    for (std::size_t i = 0; i < wanted.size(); ++i) {
      auto it = found.find(wanted[i]);
      if (it == found.end() ||
          std::ranges::find(headers, spelled[i], &cuda::SourceHeader::include_name) != headers.end())
        continue;
      headers.push_back({spelled[i], it->second});
      pending.emplace_back(wanted[i], it->second);
    }
  }
  return headers;
}

Result<std::vector<LintInput>> staged_inputs(const git::Repository& repo, ReadFiles& read, std::string& diff_text) {
  auto staged = repo.staged_diff();
  if (!staged) return std::unexpected(staged.error());
  diff_text = *staged;
  auto diff = diff::parse_unified_diff(*staged);
  if (!diff) return std::unexpected(diff.error());
  std::vector<LintInput> inputs;
  std::vector<std::string> paths;
  for (const auto& file : diff->files) {
    if (file.kind == diff::ChangeKind::deleted || file.binary || !kernels::is_cuda_source_path(file.new_path)) continue;
    std::vector<std::uint32_t> added;
    for (const auto& hunk : file.hunks) added.insert(added.end(), hunk.added.begin(), hunk.added.end());
    std::ranges::sort(added);
    if (added.empty()) continue;
    inputs.push_back({file.new_path, file.new_path, {}, std::move(added)});
    paths.push_back(file.new_path);
  }
  read = [&repo](const std::vector<std::string>& wanted) {
    std::map<std::string, std::string, std::less<>> found;
    if (wanted.empty()) return found;
    if (auto files = repo.read_files("", wanted))
      for (auto& [path, text] : *files)
        if (text) found.emplace(path, std::move(*text));
    return found;
  };
  auto texts = read(paths);
  for (auto& input : inputs) input.text = texts[input.relative];
  return inputs;
}

Result<std::vector<LintInput>> file_inputs(const std::vector<std::string>& paths, const std::filesystem::path& root,
                                           ReadFiles& read) {
  std::vector<LintInput> inputs;
  for (const auto& path : paths) {
    std::error_code ec;
    const auto real_root = std::filesystem::weakly_canonical(root, ec);
    const auto lexical = std::filesystem::absolute(path, ec).lexically_normal().lexically_relative(real_root);
    const bool in_repository = !lexical.empty() && *lexical.begin() != "..";
    // A file named inside the repository is read as a repository file (a symlink in it that leads
    // out is refused); one the user names outside it is theirs to name.
    auto text = in_repository ? read_repository_file(root, lexical, max_lint_file_bytes)
                              : read_repository_file(std::filesystem::path(path).parent_path().empty()
                                                         ? std::filesystem::current_path(ec)
                                                         : std::filesystem::absolute(path, ec).parent_path(),
                                                     std::filesystem::path(path).filename(), max_lint_file_bytes);
    if (!text) return usage_error(fmt::format("cannot read '{}': {}", path, text.error().message));
    const auto relative = std::filesystem::weakly_canonical(path, ec).lexically_relative(real_root);
    inputs.push_back({path, relative.empty() ? path : relative.generic_string(), std::move(*text), std::nullopt});
  }
  // Headers are read inside the repository only: a committed symlink to /proc/self/environ or a
  // path through .git stays unread (the compile then reports the header missing).
  read = [root](const std::vector<std::string>& wanted) {
    std::map<std::string, std::string, std::less<>> found;
    for (const auto& path : wanted)
      if (auto text = read_repository_file(root, path, max_lint_file_bytes)) found.emplace(path, std::move(*text));
    return found;
  };
  return inputs;
}

std::string cuda_include_dir(const EnvLookup& env) { return cuda::toolkit_include_dir(env); }

// NVRTC facts for the .cu files (headers are compiled as part of the files that include them).
// `work_tree`: where the compiler's missing headers may be read from (none for the index).
gate::FactsResult compiler_facts(const config::Config& config, const std::vector<LintInput>& inputs, const ReadFiles& read,
                           const std::optional<std::filesystem::path>& work_tree, Context& context,
                           std::vector<std::string>& notes) {
  if (!config.boolean_value("lint.compiler_facts")) return {};
  std::vector<gate::FactsRequest> requests;
  for (const auto& input : inputs)
    if (input.relative.ends_with(".cu"))
      requests.push_back(
          {input.relative, input.text, local_headers(input, read), {}, input.added ? &*input.added : nullptr});
  if (requests.empty()) return {};
  auto compiler = gate::load_compiler(config, context.env, work_tree);
  if (!compiler) {
    notes.push_back("compiler facts not gathered (register, spill and stack rules skipped): " +
                    compiler.error().message());
    return {};
  }
  // "auto" would mean initialising the GPU driver to ask the local GPU, which can take a second:
  // too slow for a pre-commit hook, so the lint takes the gate's fallback target.
  std::string arch = config.string_value("cuda.arch");
  if (arch == "auto") arch = "sm_90";
  notes.push_back(fmt::format("compiler facts for {} from NVRTC {}", arch, (*compiler)->version().text()));
  std::optional<std::filesystem::path> cache;
  if (auto directory = policy::default_ptx_cache_directory(context.env)) cache = directory->parent_path() / "lint";
  auto facts = gate::gather_compiler_facts(**compiler, requests, arch, cache, cuda_include_dir(context.env));
  notes.insert(notes.end(), facts.notes.begin(), facts.notes.end());
  return facts;
}

// The offline forecast of each changed kernel: staged changes against HEAD, or the named files
// (as the working tree has them) against HEAD. Outside a repository, or before the first commit,
// there is no earlier version: a note says so.
Result<gate::LintForecasts> lint_forecasts(
    const config::Config& config, const std::vector<LintInput>& inputs, const git::Repository* staged_repository,
    const std::filesystem::path& root, const std::string& diff_text,
    const std::map<std::pair<std::string, std::string>, embedded::LaunchGeometry>& geometry, Context& context) {
  gate::LintForecasts none;
  std::unique_ptr<git::Repository> opened;
  const git::Repository* repository = staged_repository;
  if (repository == nullptr) {
    auto found = git::open_repository(root);
    if (!found) {
      none.notes.push_back("forecast not run: the files are not in a git repository, so there is no earlier version");
      return none;
    }
    opened = std::move(*found);
    repository = opened.get();
  }
  if (!repository->resolve("HEAD")) {
    none.notes.push_back("forecast not run: no commit yet (HEAD), so no kernel has an earlier version");
    return none;
  }
  Result<gate::PrSources> sources;
  std::map<std::string, std::string, std::less<>> shown;
  if (staged_repository != nullptr) {
    auto head = repository->resolve("HEAD");
    sources = gate::read_pr_sources(*repository, head->sha, "", "staged changes against HEAD", diff_text);
  } else {
    std::vector<std::pair<std::string, std::string>> files;
    std::error_code ec;
    const auto repository_root = std::filesystem::weakly_canonical(repository->root(), ec);
    for (const auto& input : inputs) {
      const auto relative =
          std::filesystem::weakly_canonical(root / input.relative, ec).lexically_relative(repository_root);
      if (relative.empty() || relative.begin()->string() == "..") continue;
      files.emplace_back(relative.generic_string(), input.text);
      shown[relative.generic_string()] = input.shown;
    }
    sources = gate::read_worktree_sources(*repository, files);
  }
  if (!sources) return std::unexpected(sources.error());
  const gate::LintForecastSettings settings{config.number_value("lint.forecast_fail_confidence"),
                                            config.string_value("forecast.hardware"), cuda_include_dir(context.env)};
  const auto forecaster =
      gate::lint_forecaster(config.string_value("forecast.hardware"), config.number_value("bench.tolerance"));
  // Launch features where a spec gives the launch (paths as the lint knows them: relative to the
  // config's directory, which is the repository root in the usual layout).
  const auto launch = [&](const kernels::KernelSite& site) -> std::optional<embedded::LaunchGeometry> {
    auto it = geometry.find({site.file, site.qualified_name});
    if (it == geometry.end()) return std::nullopt;
    return it->second;
  };
  return gate::forecast_changed_kernels(*sources, shown, settings, forecaster, launch);
}

Result<ExitCode> install_hook_command(const Invocation& invocation, Context& context) {
  if (invocation.has("--staged") || !invocation.positional.empty())
    return usage_error("--install-hook takes no files and no --staged");
  std::error_code ec;
  const std::string directory =
      invocation.has("--repo") ? invocation.value("--repo") : std::filesystem::current_path(ec).string();
  std::error_code link_error;
  const std::filesystem::path binary = std::filesystem::read_symlink("/proc/self/exe", link_error);
  auto hook = gate::install_pre_commit_hook(directory, link_error ? "kforecast" : binary.string(),
                                            invocation.has("--force") ? gate::ForeignHook::replace
                                                                      : gate::ForeignHook::keep);
  if (!hook) return std::unexpected(hook.error());
  context.out << fmt::format("installed {}: 'git commit' now runs 'kforecast lint --staged'\n", hook->string());
  return ExitCode::pass;
}

Result<ExitCode> write_report(const lint::LintReport& report, const Invocation& invocation, Context& context) {
  const std::string format = invocation.has("--format") ? invocation.value("--format") : "text";
  if (format != "text" && format != "json" && format != "sarif")
    return usage_error(fmt::format("--format {}: expected text, json or sarif", format));
  const std::string when = invocation.has("--color") ? invocation.value("--color") : "auto";
  if (when != "auto" && when != "always" && when != "never")
    return usage_error(fmt::format("--color {}: expected auto, always or never", when));
  std::ofstream file;
  if (invocation.has("--output")) {
    file.open(invocation.value("--output"), std::ios::binary);
    if (!file) return fail(ExitCode::could_not_run, fmt::format("cannot write '{}'", invocation.value("--output")));
  }
  RedactingStream redacted_file(file);
  std::ostream& out = file.is_open() ? redacted_file.stream() : context.out;
  const bool terminal = !file.is_open() && context.out_is_terminal;
  const auto no_color = context.env("NO_COLOR");
  const lint::Colour colour = when == "always"  ? lint::Colour::on
                              : when == "never" ? lint::Colour::off
                                                : lint::colour_for(terminal, no_color && !no_color->empty());
  if (format == "json")
    lint::write_json(out, report);
  else if (format == "sarif")
    lint::write_sarif(out, report);
  else
    lint::write_text(out, report, colour);
  const bool error = std::ranges::any_of(report.diagnostics,
                                         [](const lint::Diagnostic& d) { return d.severity == lint::Severity::error; });
  return error ? ExitCode::gate_failed : ExitCode::pass;
}

}  // namespace

Result<ExitCode> lint_command(const Invocation& invocation, Context& context) {
  if (invocation.has("--install-hook")) return install_hook_command(invocation, context);
  if (invocation.has("--force")) return usage_error("--force goes with --install-hook");
  const bool staged = invocation.has("--staged");
  if (staged == !invocation.positional.empty())
    return usage_error(staged ? "--staged lints the index: name no files with it"
                              : "name the files to lint, or pass --staged for the changes staged for commit");
  auto config = load_command_config(invocation, context);
  if (!config) return std::unexpected(config.error());

  std::unique_ptr<git::Repository> repository;
  std::filesystem::path root = gate::config_root(*config);
  ReadFiles read;
  std::string diff_text;  // --staged: git's diff of the index against HEAD
  Result<std::vector<LintInput>> inputs;
  if (staged) {
    std::error_code ec;
    auto opened = git::open_repository(invocation.has("--repo") ? std::filesystem::path(invocation.value("--repo"))
                                                                : std::filesystem::current_path(ec));
    if (!opened) return std::unexpected(opened.error());
    repository = std::move(*opened);
    if (!config->file()) root = repository->root();
    inputs = staged_inputs(*repository, read, diff_text);
  } else {
    inputs = file_inputs(invocation.positional, root, read);
  }
  if (!inputs) return std::unexpected(inputs.error());
  auto rules = gate::configured_rules(*config);
  if (!rules) return std::unexpected(rules.error());
  auto ignored =
      lint::PathSuppressions::parse(std::get<std::vector<std::string>>(config->setting("lint.ignore_paths").value));
  if (!ignored) return std::unexpected(ignored.error());

  // Every rule a diagnostic can carry, for SARIF's rule table: the configured ones, then the
  // forecast's and the launch specs' pseudo-rules.
  std::vector<lint::Rule> all_rules(rules->rules().begin(), rules->rules().end());
  all_rules.push_back(gate::forecast_rule());
  all_rules.push_back(gate::launch_spec_rule());
  lint::LintReport report{std::string(kforecast::version), {}, {}, all_rules};
  const gate::FactsResult facts =
      compiler_facts(*config, *inputs, read, staged ? std::nullopt : std::optional(root), context, report.notes);
  std::map<std::string, lint::FactsByKernel, std::less<>> facts_by_path = facts.by_path;

  std::vector<gate::LaunchFile> launch_files;
  for (const auto& input : *inputs) {
    auto found = facts.by_path.find(input.relative);
    launch_files.push_back(
        {input.shown, input.relative, input.text, found == facts.by_path.end() ? nullptr : &found->second});
  }
  auto launch = gate::gather_launch_facts(
      launch_files, {config->source_text(), config->source_name(), config->string_value("forecast.hardware")});
  if (!launch) return std::unexpected(launch.error());
  for (auto& [path, kernels] : launch->by_path)
    for (auto& [name, kernel] : kernels) facts_by_path[path][name].launch = std::move(kernel.launch);
  report.notes.insert(report.notes.end(), launch->notes.begin(), launch->notes.end());

  // Diagnostics made outside the rules (forecasts, spec problems) honour the same suppressions.
  std::map<std::string, const LintInput*, std::less<>> by_shown;
  for (const auto& input : *inputs) by_shown[input.shown] = &input;
  const auto keep_extra = [&](lint::Diagnostic& diagnostic, const std::string& relative) {
    if (ignored->suppressed(relative, diagnostic.rule->id)) return;
    if (auto it = by_shown.find(diagnostic.path); it != by_shown.end() && diagnostic.line > 0) {
      std::string_view text = it->second->text;
      for (std::uint32_t line = 1; line < diagnostic.line && !text.empty(); ++line) {
        const auto newline = text.find('\n');
        text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
      }
      if (lint::suppressed_on_line(text.substr(0, text.find('\n')), diagnostic.rule->id)) return;
    }
    report.diagnostics.push_back(std::move(diagnostic));
  };

  for (const auto& input : *inputs) {
    auto found = facts_by_path.find(input.relative);
    const lint::LintOptions options{found == facts_by_path.end() ? nullptr : &found->second,
                                    input.added ? &*input.added : nullptr};
    for (auto& diagnostic : lint::lint_source(input.shown, input.text, rules->rules(), options))
      if (!ignored->suppressed(input.relative, diagnostic.rule->id))
        report.diagnostics.push_back(std::move(diagnostic));
  }
  std::map<std::string, std::string, std::less<>> relative_of;
  for (const auto& input : *inputs) relative_of[input.shown] = input.relative;
  for (auto& diagnostic : launch->diagnostics) keep_extra(diagnostic, relative_of[diagnostic.path]);

  if (invocation.has("--no-forecast")) {
    report.notes.push_back("forecast not run: --no-forecast");
  } else {
    auto forecasts = lint_forecasts(*config, *inputs, repository.get(), root, diff_text, launch->geometry, context);
    if (!forecasts) return std::unexpected(forecasts.error());
    report.notes.insert(report.notes.end(), forecasts->notes.begin(), forecasts->notes.end());
    for (auto& diagnostic : forecasts->diagnostics) {
      auto relative = relative_of.find(diagnostic.path);
      keep_extra(diagnostic, relative == relative_of.end() ? diagnostic.path : relative->second);
    }
  }
  // Files in the order given, then by place; a forecast comes after the rules on its line.
  std::map<std::string, std::size_t, std::less<>> order;
  for (const auto& input : *inputs) order.emplace(input.shown, order.size());
  std::ranges::stable_sort(report.diagnostics, [&](const lint::Diagnostic& a, const lint::Diagnostic& b) {
    const auto rank = [&](const std::string& path) {
      auto it = order.find(path);
      return it == order.end() ? order.size() : it->second;
    };
    return std::tuple(rank(a.path), a.path, a.line) < std::tuple(rank(b.path), b.path, b.line);
  });
  return write_report(report, invocation, context);
}

}  // namespace kforecast::cli
