// SPDX-License-Identifier: Apache-2.0
// `kforecast doctor`: everything kforecast can use on this machine, and the fix for what is
// missing. It reports and never fails for a missing capability; only an invalid config exits 2.

#include <ostream>

#include <fmt/format.h>

#include "base/subprocess.hpp"
#include "cli/handlers.hpp"
#include "cuda/probe.hpp"
#include "kforecast_version.hpp"

namespace kforecast::cli {
namespace {

void print_line(Context& context, std::string_view label, std::string_view text) {
  context.out << fmt::format("  {:<9} {}\n", label, text);
}

std::string git_status() {
  auto git = run_process({"git", "--version"}, {.timeout = std::chrono::seconds(10)});
  if (!git) return "not found: install git (apt-get install git); kforecast reads revisions through it";
  if (git->exit_status != 0) return fmt::format("'git --version' failed: {}", git->err);
  std::string text = git->out;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

std::string config_status(const Result<config::Config>& config) {
  if (!config) return "INVALID (see the error below)";
  if (!config->file()) return "no .kforecast.toml: defaults apply";
  return fmt::format("ok: {}", config->file()->string());
}

// The endpoint line: configured or not. Reachability arrives with the LLM forecaster.
std::string endpoint_status(const Result<config::Config>& config) {
  const auto& spec = *config::find_key("endpoint.url");
  if (!spec.planned.empty()) return fmt::format("not configured ({})", spec.planned);
  if (!config || config->string_value("endpoint.url").empty()) return "not configured";
  return fmt::format("{} ({})", config->string_value("endpoint.url"), config->setting("endpoint.url").origin);
}

}  // namespace

Result<ExitCode> doctor_command(const Invocation& invocation, Context& context) {
  if (!invocation.positional.empty()) return usage_error("'kforecast doctor' takes no arguments");
  context.out << fmt::format("kforecast {}\n", kforecast::version);
  auto config = load_command_config(invocation, context);
  print_line(context, "config", config_status(config));
  print_line(context, "git", git_status());

  // With an invalid config the library overrides are unknown; probe the default places anyway,
  // so one run shows every problem.
  const config::Config settings = config ? *config : config::Config{};
  const cuda::LoaderOptions loader{settings.string_value("cuda.nvrtc_library"),
                                   settings.string_value("cuda.driver_library")};
  for (const auto& line : cuda::describe_cuda_status(cuda::probe_cuda(loader, context.env)))
    print_line(context, line.label, line.text);
  print_line(context, "endpoint", endpoint_status(config));

  if (!config) return std::unexpected(config.error());
  return ExitCode::pass;
}

}  // namespace kforecast::cli
