// SPDX-License-Identifier: Apache-2.0
// `kforecast doctor`: everything kforecast can use on this machine, and the fix for what is
// missing. It reports and never fails for a missing capability; only an invalid config exits 2.

#include <algorithm>
#include <ostream>

#include <fmt/format.h>

#include "base/subprocess.hpp"
#include "cli/gate_outside.hpp"
#include "cli/handlers.hpp"
#include "cuda/probe.hpp"
#include "cuda/toolkit_locator.hpp"
#include "forecasters/llm_settings.hpp"
#include "kforecast_version.hpp"
#include "http/curl_transport.hpp"
#include "llm/endpoint_check.hpp"

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

// The endpoint lines: reachable, key accepted, model listed, and which structured-output method
// works (one small forecast request). Problems are reported, never fatal: doctor diagnoses.
void print_endpoint(Context& context, const Result<config::Config>& config) {
  if (!config || config->string_value("endpoint.url").empty()) {
    print_line(context, "endpoint", "not configured (set endpoint.url or KFORECAST_ENDPOINT for the LLM forecaster)");
    return;
  }
  const std::string where =
      fmt::format("{} ({})", config->string_value("endpoint.url"), config->setting("endpoint.url").origin);
  auto settings = forecasters::endpoint_settings(*config, context.env);
  if (!settings) {
    print_line(context, "endpoint", fmt::format("{}: {}", where, settings.error().message));
    return;
  }
  const auto transport = http::make_curl_transport(
      {http::proxy_settings_from(context.env), config->string_value("endpoint.ca_bundle"),
       std::chrono::seconds(static_cast<std::int64_t>(config->number_value("endpoint.stall_seconds")))});
  settings->max_retries = std::min(settings->max_retries, 1);
  llm::ForecastClient client(*settings, *transport, llm::builtin_prompts(),
                             std::chrono::steady_clock::now() + std::chrono::minutes(3));
  const auto models = llm::check_models(client, *transport);
  if (!models.reachable || !models.authenticated) {
    print_line(context, "endpoint", fmt::format("{}: {}", where, models.problem));
    return;
  }
  std::string listed = models.problem.empty() ? "" : fmt::format("; model list unavailable ({})", models.problem);
  if (models.problem.empty())
    listed = std::ranges::find(models.models, settings->model) != models.models.end()
                 ? fmt::format("; model '{}' listed", settings->model)
                 : fmt::format("; model '{}' NOT among the {} listed (check endpoint.model)", settings->model,
                               models.models.size());
  print_line(context, "endpoint", fmt::format("{}: reachable, key accepted{}", where, listed));
  const auto output = llm::check_structured_output(client);
  print_line(context, "output",
             output.works ? fmt::format("structured output works: {} ({} request{})", output.method, output.requests,
                                        output.requests == 1 ? "" : "s")
                          : fmt::format("no forecast from the endpoint: {}", output.problem));
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
  // cuda.nvcc belongs to the nvcc compiler; where the key table does not have it, search.
  const std::string nvcc = settings.settings().contains("cuda.nvcc") ? settings.string_value("cuda.nvcc") : "";
  for (const auto& line : cuda::describe_cuda_status(cuda::probe_cuda(loader, context.env))) {
    print_line(context, line.label, line.text);
    // The two compilers together, before the driver and the GPUs.
    if (line.label == "nvrtc")
      for (const auto& toolkit_line : cuda::describe_toolkit(cuda::locate_toolkit(nvcc, context.env)))
        print_line(context, toolkit_line.label, toolkit_line.text);
  }
  // How code under review is compiled and run here: each layer of the sandbox, probed.
  for (const auto& line : describe_sandbox(this_machine_sandbox())) print_line(context, line.label, line.text);
  print_endpoint(context, config);

  if (!config) return std::unexpected(config.error());
  return ExitCode::pass;
}

}  // namespace kforecast::cli
