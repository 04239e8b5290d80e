// SPDX-License-Identifier: Apache-2.0
#include "cli/lint_hook.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "base/subprocess.hpp"

namespace kforecast::cli {
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

Result<ExitCode> install_hook_command(const Invocation& invocation, Context& context) {
  if (invocation.has("--staged") || !invocation.positional.empty())
    return usage_error("--install-hook takes no files and no --staged");
  std::error_code ec;
  const std::string directory =
      invocation.has("--repo") ? invocation.value("--repo") : std::filesystem::current_path(ec).string();
  // git decides where hooks live (core.hooksPath, worktrees, GIT_DIR); relative to `directory`.
  auto asked = run_process({"git", "rev-parse", "--git-path", "hooks/pre-commit"}, {.working_directory = directory});
  if (!asked) return std::unexpected(asked.error());
  if (asked->exit_status != 0)
    return usage_error(fmt::format("--install-hook: '{}' is not in a git repository", directory));
  std::string relative = asked->out.substr(0, asked->out.find('\n'));
  const std::filesystem::path hook = std::filesystem::path(relative).is_absolute()
                                         ? std::filesystem::path(relative)
                                         : std::filesystem::path(directory) / relative;
  if (std::filesystem::exists(hook, ec)) {
    std::ifstream existing(hook, std::ios::binary);
    std::ostringstream text;
    text << existing.rdbuf();
    if (text.str().find(hook_marker) == std::string::npos && !invocation.has("--force"))
      return usage_error(fmt::format(
          "{} exists and is not kforecast's: left as it is. Add 'kforecast lint --staged' to it, or pass --force "
          "to replace it",
          hook.string()));
  }
  std::error_code link_error;
  const std::filesystem::path binary = std::filesystem::read_symlink("/proc/self/exe", link_error);
  std::filesystem::create_directories(hook.parent_path(), ec);
  const std::filesystem::path temporary = hook.string() + ".kforecast-new";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << hook_script(link_error ? "kforecast" : binary.string());
    if (!out) return fail(ExitCode::could_not_run, fmt::format("cannot write '{}'", temporary.string()));
  }
  std::filesystem::permissions(temporary,
                               std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                                   std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
                                   std::filesystem::perms::others_exec,
                               ec);
  std::filesystem::rename(temporary, hook, ec);
  if (ec) return fail(ExitCode::could_not_run, fmt::format("cannot install '{}': {}", hook.string(), ec.message()));
  context.out << fmt::format("installed {}: 'git commit' now runs 'kforecast lint --staged'\n", hook.string());
  return ExitCode::pass;
}

}  // namespace kforecast::cli
