// SPDX-License-Identifier: Apache-2.0
#pragma once

// The handlers the command table points at, one file each.

#include <filesystem>

#include "cli/command.hpp"
#include "config/config.hpp"

namespace kforecast::cli {

Result<ExitCode> doctor_command(const Invocation& invocation, Context& context);
Result<ExitCode> config_command(const Invocation& invocation, Context& context);
Result<ExitCode> help_command(const Invocation& invocation, Context& context);
Result<ExitCode> pr_command(const Invocation& invocation, Context& context);
Result<ExitCode> lint_command(const Invocation& invocation, Context& context);
Result<ExitCode> rules_command(const Invocation& invocation, Context& context);
Result<ExitCode> train_command(const Invocation& invocation, Context& context);
Result<ExitCode> check_command(const Invocation& invocation, Context& context);
Result<ExitCode> bench_command(const Invocation& invocation, Context& context);
Result<ExitCode> calibration_command(const Invocation& invocation, Context& context);
Result<ExitCode> eval_command(const Invocation& invocation, Context& context);
Result<ExitCode> report_command(const Invocation& invocation, Context& context);
Result<ExitCode> spec_command(const Invocation& invocation, Context& context);
Result<ExitCode> capture_command(const Invocation& invocation, Context& context);

// The configuration a command runs with: --config FILE if given, else .kforecast.toml at the
// root of the work tree around --repo (or the current directory), then the environment.
Result<config::Config> load_command_config(const Invocation& invocation, const Context& context);
// --repo, else the current directory (empty where it cannot be read).
std::filesystem::path repo_directory(const Invocation& invocation);
// `config` as it is, after registering the values of the variables it names as secrets
// (security.secret_env, endpoint.api_key_env) for redaction from everything kforecast writes.
Result<config::Config> with_secrets_registered(Result<config::Config> config);

// Which forecaster runs: --forecaster, else forecast.forecaster (KFORECAST_FORECASTER). True: the LLM.
Result<bool> use_llm_forecaster(const Invocation& invocation, const config::Config& config);

// Help texts, also printed by `--help`.
std::string main_help();
std::string command_help(const Command& command);

}  // namespace kforecast::cli
