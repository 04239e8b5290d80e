// SPDX-License-Identifier: Apache-2.0
// `kforecast lint [--staged | FILE...]`: the performance lint, for a pre-commit hook or by hand.
// With --staged it lints what `git commit` would record and reports only on the added lines;
// with files it lints them whole. Each changed kernel is also forecast offline against HEAD
// (lint_run/lint_forecast.hpp). Exit 1 when a rule of severity error fires or a forecast gives a
// regression a probability above lint.forecast_fail_confidence. The run is lint_run/lint_run.hpp's;
// this file parses the options, opens the repository, builds the forecaster and writes.

#include <algorithm>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "base/output_file.hpp"
#include "base/this_executable.hpp"
#include "cli/gate_outside.hpp"
#include "cli/compiler_loading.hpp"
#include "cli/real_world.hpp"
#include "cuda/library_search.hpp"
#include "cli/handlers.hpp"
#include "cli/options.hpp"
#include "lint_run/lint_forecast.hpp"
#include "lint_run/lint_hook.hpp"
#include "lint_run/lint_rules.hpp"
#include "lint_run/lint_run.hpp"
#include "git/repository.hpp"
#include "lint/diagnostic_writer.hpp"

namespace kforecast::cli {
namespace {

Result<ExitCode> install_hook_command(const Invocation& invocation, Context& context) {
  if (invocation.has("--staged") || !invocation.positional.empty())
    return usage_error("--install-hook takes no files and no --staged");
  const std::string directory = repo_directory(invocation).string();
  const std::string binary = this_executable();
  auto hook =
      lint_run::install_pre_commit_hook(directory, binary.empty() ? "kforecast" : binary,
                                    invocation.has("--force") ? lint_run::ForeignHook::replace : lint_run::ForeignHook::keep);
  if (!hook) return std::unexpected(hook.error());
  context.out << fmt::format("installed {}: 'git commit' now runs 'kforecast lint --staged'\n", hook->string());
  return ExitCode::pass;
}

Result<ExitCode> write_report(const lint::LintReport& report, const Invocation& invocation, Context& context) {
  const auto format = format_option(invocation, {"text", "json", "sarif"});
  if (!format) return std::unexpected(format.error());
  const std::string when = invocation.has("--color") ? invocation.value("--color") : "auto";
  if (when != "auto" && when != "always" && when != "never")
    return usage_error(fmt::format("--color {}: expected auto, always or never", when));
  auto output = OutputFile::open(invocation.has("--output") ? std::optional(invocation.value("--output")) : std::nullopt,
                                 context.out);
  if (!output) return std::unexpected(output.error());
  std::ostream& out = (*output)->stream();
  const bool terminal = !(*output)->is_file() && context.out_is_terminal;
  const auto no_color = context.env("NO_COLOR");
  const lint::Colour colour = when == "always"  ? lint::Colour::on
                              : when == "never" ? lint::Colour::off
                                                : lint::colour_for(terminal, no_color && !no_color->empty());
  if (*format == "json")
    lint::write_json(out, report);
  else if (*format == "sarif")
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

  const config::Config& settings = *config;
  lint_run::LintRequest request{
      .files = invocation.positional,
      .compiler = [&settings, env = context.env](std::optional<std::filesystem::path> work_tree) {
        return load_compiler(settings, env, std::move(work_tree));
      },
      .cuda_include_dir = cuda::toolkit_include_dir(context.env),
      .facts_cache = lint_facts_folder(context.env),
      .sandbox = &this_machine_sandbox()};
  std::unique_ptr<git::Repository> repository;
  if (staged) {
    auto opened = git::open_repository(repo_directory(invocation));
    if (!opened) return std::unexpected(opened.error());
    repository = std::move(*opened);
    request.staged = repository.get();
  }
  const auto forecaster =
      lint_run::lint_forecaster(config->string_value("forecast.hardware"), config->number_value("bench.tolerance"));
  if (!invocation.has("--no-forecast")) {
    request.forecaster = &forecaster;
    // The named files are forecast against the HEAD of the repository they are in, if any.
    if (!staged)
      if (auto found = git::open_repository(lint_run::config_root(*config))) {
        repository = std::move(*found);
        request.files_repository = repository.get();
      }
  }
  auto run = lint_run::run_lint(*config, request);
  if (!run) return std::unexpected(run.error());
  return write_report(run->report, invocation, context);
}

}  // namespace kforecast::cli
