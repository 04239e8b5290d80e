// SPDX-License-Identifier: Apache-2.0
#pragma once

// Running git for the real Repository: fixed options that make its output parseable whatever the
// user's configuration (no colour, no pager, no external diff or textconv, standard prefixes).

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "base/error.hpp"
#include "base/status_line.hpp"
#include "base/subprocess.hpp"

namespace kforecast::git {

// A git command that has not answered in this long is stuck (a lock, a credential prompt); CI
// must fail rather than hang.
inline constexpr std::chrono::minutes git_timeout{5};

// Runs `git -C root ARGS...`; an Error (with git's own message) when git fails to start or exits
// non-zero, unless `allowed_status` admits the status.
Result<ProcessOutput> run_git(const std::filesystem::path& root, std::vector<std::string> args, std::string input = {},
                              int allowed_status = 0);

// `doctor`'s git line: git's version, or that it is missing and how to install it.
StatusLine describe_git();

}  // namespace kforecast::git
