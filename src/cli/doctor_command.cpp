// SPDX-License-Identifier: Apache-2.0
// `kforecast doctor`: everything kforecast can use on this machine, and the fix for what is
// missing. It reports and never fails for a missing capability; only an invalid config exits 2.

#include <chrono>
#include <ostream>

#include <fmt/format.h>

#include "cli/gate_outside.hpp"
#include "cli/handlers.hpp"
#include "cuda/probe.hpp"
#include "cuda/toolkit_locator.hpp"
#include "forecasters/endpoint_doctor.hpp"
#include "git/git_process.hpp"
#include "kforecast_version.hpp"
#include "http/curl_transport.hpp"

namespace kforecast::cli {
namespace {

void print_line(Context& context, std::string_view label, std::string_view text) {
  context.out << fmt::format("  {:<9} {}\n", label, text);
}

std::string config_status(const Result<config::Config>& config) {
  if (!config) return "INVALID (see the error below)";
  if (!config->file()) return "no .kforecast.toml: defaults apply";
  return fmt::format("ok: {}", config->file()->string());
}

}  // namespace

Result<ExitCode> doctor_command(const Invocation& invocation, Context& context) {
  if (!invocation.positional.empty()) return usage_error("'kforecast doctor' takes no arguments");
  context.out << fmt::format("kforecast {}\n", kforecast::version);
  auto config = load_command_config(invocation, context);
  print_line(context, "config", config_status(config));
  const StatusLine git = git::describe_git();
  print_line(context, git.label, git.text);

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
  const auto transport = http::make_curl_transport(
      {http::proxy_settings_from(context.env), settings.string_value("endpoint.ca_bundle"),
       std::chrono::seconds(static_cast<std::int64_t>(settings.number_value("endpoint.stall_seconds")))});
  for (const auto& line : forecasters::describe_endpoint(config, context.env, *transport))
    print_line(context, line.label, line.text);

  if (!config) return std::unexpected(config.error());
  return ExitCode::pass;
}

}  // namespace kforecast::cli
