// SPDX-License-Identifier: Apache-2.0
#include <ostream>

#include <fmt/format.h>

#include "base/subprocess.hpp"
#include "cli/handlers.hpp"
#include "kforecast_version.hpp"

namespace kforecast::cli {
namespace {

void line(Context& context, std::string_view what, std::string_view text) {
  context.out << fmt::format("  {:<9} {}\n", what, text);
}

std::string git_status() {
  auto git = run_process({"git", "--version"}, {.timeout = std::chrono::seconds(10)});
  if (!git) return "not found: install git (apt-get install git); kforecast reads revisions through it";
  if (git->exit_status != 0) return fmt::format("'git --version' failed: {}", git->err);
  std::string text = git->out;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

}  // namespace

Result<ExitCode> doctor_command(const Invocation& invocation, Context& context) {
  if (!invocation.positional.empty()) return usage_error("'kforecast doctor' takes no arguments");
  context.out << fmt::format("kforecast {}\n", kforecast::version);
  auto config = load_command_config(invocation, context);
  if (config) {
    line(context, "config",
         config->file() ? fmt::format("ok: {}", config->file()->string()) : "no .kforecast.toml: defaults apply");
  } else {
    line(context, "config", "INVALID (see below)");
  }
  line(context, "git", git_status());
  if (!config) return std::unexpected(config.error());
  return ExitCode::pass;
}

}  // namespace kforecast::cli
