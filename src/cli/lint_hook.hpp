// SPDX-License-Identifier: Apache-2.0
#pragma once

// `kforecast lint --install-hook [--force]`: a plain git pre-commit hook that runs
// `kforecast lint --staged`, for repositories that do not use the pre-commit framework
// (those add the hook from .pre-commit-hooks.yaml instead).

#include <string>
#include <string_view>

#include "cli/command.hpp"

namespace kforecast::cli {

// The line that marks a hook as kforecast's own, so reinstalling may replace it.
inline constexpr std::string_view hook_marker = "# kforecast pre-commit hook";

// The hook script for the kforecast binary at `binary`.
std::string hook_script(std::string_view binary);

Result<ExitCode> install_hook_command(const Invocation& invocation, Context& context);

}  // namespace kforecast::cli
