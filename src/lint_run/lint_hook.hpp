// SPDX-License-Identifier: Apache-2.0
#pragma once

// `kforecast lint --install-hook [--force]`: a plain git pre-commit hook that runs
// `kforecast lint --staged`, for repositories that do not use the pre-commit framework
// (those add the hook from .pre-commit-hooks.yaml instead).

#include <filesystem>
#include <string>
#include <string_view>

#include "base/error.hpp"

namespace kforecast::lint_run {

// The line that marks a hook as kforecast's own, so reinstalling may replace it.
inline constexpr std::string_view hook_marker = "# kforecast pre-commit hook";

// The hook script for the kforecast binary at `binary`.
std::string hook_script(std::string_view binary);

// Whether a pre-commit hook that is not kforecast's may be replaced (--force).
enum class ForeignHook { keep, replace };

// Writes the hook for `binary` where git keeps the pre-commit hook of the repository around
// `directory` (core.hooksPath, worktrees and GIT_DIR respected), and gives its path. A hook of
// someone else's is an error unless `foreign` says to replace it.
Result<std::filesystem::path> install_pre_commit_hook(const std::filesystem::path& directory, std::string_view binary,
                                                      ForeignHook foreign);

}  // namespace kforecast::lint_run
