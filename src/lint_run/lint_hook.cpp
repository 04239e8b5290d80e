// SPDX-License-Identifier: Apache-2.0
#include "lint_run/lint_hook.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "base/subprocess.hpp"

namespace kforecast::lint_run {
namespace {

// Single quotes for sh: every byte literal, a quote written as '\''.
std::string shell_quoted(std::string_view text) {
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

std::string hook_script(std::string_view binary) {
  return fmt::format(
      "#!/bin/sh\n"
      "{}: installed by 'kforecast lint --install-hook'; reinstalling replaces it.\n"
      "# Lints the staged CUDA changes; a rule of severity error blocks the commit\n"
      "# (git commit --no-verify skips it). KFORECAST overrides the binary.\n"
      "binary={}\n"
      "exec \"${{KFORECAST:-$binary}}\" lint --staged\n",
      hook_marker, shell_quoted(binary));
}

Result<std::filesystem::path> install_pre_commit_hook(const std::filesystem::path& directory, std::string_view binary,
                                                      ForeignHook foreign) {
  // git decides where hooks live (core.hooksPath, worktrees, GIT_DIR); relative to `directory`.
  auto asked =
      run_process({"git", "rev-parse", "--git-path", "hooks/pre-commit"}, {.working_directory = directory.string()});
  if (!asked) return std::unexpected(asked.error());
  if (asked->exit_status != 0)
    return usage_error(fmt::format("--install-hook: '{}' is not in a git repository", directory.string()));
  std::string relative = asked->out.substr(0, asked->out.find('\n'));
  std::filesystem::path hook =
      std::filesystem::path(relative).is_absolute() ? std::filesystem::path(relative) : directory / relative;
  std::error_code ec;
  if (std::filesystem::exists(hook, ec)) {
    std::ifstream existing(hook, std::ios::binary);
    std::ostringstream text;
    text << existing.rdbuf();
    if (text.str().find(hook_marker) == std::string::npos && foreign == ForeignHook::keep)
      return usage_error(fmt::format(
          "{} exists and is not kforecast's: left as it is. Add 'kforecast lint --staged' to it, or pass --force "
          "to replace it",
          hook.string()));
  }
  std::filesystem::create_directories(hook.parent_path(), ec);
  const std::filesystem::path temporary = hook.string() + ".kforecast-new";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << hook_script(binary);
    if (!out) return fail(ExitCode::could_not_run, fmt::format("cannot write '{}'", temporary.string()));
  }
  std::filesystem::permissions(temporary,
                               std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                                   std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
                                   std::filesystem::perms::others_exec,
                               ec);
  std::filesystem::rename(temporary, hook, ec);
  if (ec) return fail(ExitCode::could_not_run, fmt::format("cannot install '{}': {}", hook.string(), ec.message()));
  return hook;
}

}  // namespace kforecast::lint_run
