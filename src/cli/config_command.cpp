// SPDX-License-Identifier: Apache-2.0
#include <filesystem>
#include <ostream>

#include <fmt/format.h>

#include "base/redaction.hpp"
#include "cli/handlers.hpp"
#include "config/render.hpp"
#include "measure/spec_check.hpp"
#include "git/repository.hpp"
#include "harness/harness_config.hpp"

namespace kforecast::cli {

Result<bool> use_llm_forecaster(const Invocation& invocation, const config::Config& config) {
  if (!invocation.has("--forecaster")) return config.string_value("forecast.forecaster") == "llm";
  const std::string name = invocation.value("--forecaster");
  if (name == "llm" || name == "embedded") return name == "llm";
  return usage_error(fmt::format("--forecaster {}: expected embedded or llm", name));
}

Result<config::Config> with_secrets_registered(Result<config::Config> config) {
  if (!config) return config;
  auto names = std::get<std::vector<std::string>>(config->setting("security.secret_env").value);
  names.push_back(config->string_value("endpoint.api_key_env"));
  register_environment_secrets(names);
  return config;
}

std::filesystem::path repo_directory(const Invocation& invocation) {
  std::error_code ec;
  return invocation.has("--repo") ? std::filesystem::path(invocation.value("--repo")) : std::filesystem::current_path(ec);
}

Result<config::Config> load_command_config(const Invocation& invocation, const Context& context) {
  if (invocation.has("--config"))
    return with_secrets_registered(config::load_config(invocation.value("--config"), context.env));
  std::error_code ec;
  const std::filesystem::path start = repo_directory(invocation);
  if (invocation.has("--repo") && !std::filesystem::is_directory(start, ec))
    return usage_error(fmt::format("--repo: '{}' is not a directory", start.string()));
  return with_secrets_registered(config::load_config(config::find_config_file(start), context.env));
}

Result<ExitCode> config_command(const Invocation& invocation, Context& context) {
  if (!invocation.positional.empty()) return usage_error("'kforecast config' takes no arguments");
  if (invocation.has("--reference")) {
    context.out << config::render_reference_markdown();
    return ExitCode::pass;
  }
  auto config = load_command_config(invocation, context);
  if (!config) return std::unexpected(config.error());
  // Tables the key table does not hold are read by their own stage; a mistake in one is an error
  // here too, so `kforecast config` checks the whole file.
  if (auto harnesses = harness::read_harnesses(config->source_text(), config->source_name()); !harnesses)
    return std::unexpected(harnesses.error());
  context.out << config::render_effective(*config);

  auto repository = git::open_repository(repo_directory(invocation));
  const auto check = measure::check_launch_specs(*config, repository ? repository->get() : nullptr);
  context.out << fmt::format("\n# launch specs: {} [[kernel]] table{} and {} `// kforecast:` block{} read\n",
                             check.config_specs, check.config_specs == 1 ? "" : "s", check.comment_specs,
                             check.comment_specs == 1 ? "" : "s");
  for (const auto& note : check.notes) context.out << "# " << note << "\n";
  if (check.problems.empty()) return ExitCode::pass;
  for (const auto& problem : check.problems) context.err << "kforecast: error: " << problem << "\n";
  context.err << fmt::format("kforecast: {} launch spec problem{}: `kforecast bench` and `pr` would refuse these specs\n",
                             check.problems.size(), check.problems.size() == 1 ? "" : "s");
  return ExitCode::usage;
}

}  // namespace kforecast::cli
