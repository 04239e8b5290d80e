// SPDX-License-Identifier: Apache-2.0
#include "git/git_process.hpp"

#include <fmt/format.h>

namespace kforecast::git {
namespace {

std::string first_line(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  const auto newline = text.find('\n');
  return std::string(newline == std::string_view::npos ? text : text.substr(0, newline));
}

}  // namespace

Result<ProcessOutput> run_git(const std::filesystem::path& root, std::vector<std::string> args, std::string input,
                              int allowed_status) {
  std::vector<std::string> argv{"git",       "-C", root.string(), "-c", "core.quotePath=true", "-c", "color.ui=false",
                                "--no-pager"};
  argv.insert(argv.end(), args.begin(), args.end());
  auto result = run_process(argv, {.input = std::move(input), .timeout = git_timeout});
  if (!result) {
    if (result.error().message.find("cannot run") != std::string::npos)
      return fail(ExitCode::could_not_run,
                  "git not found: install git (apt-get install git); kforecast reads "
                  "revisions through it");
    return std::unexpected(result.error());
  }
  if (result->exit_status != 0 && result->exit_status != allowed_status) {
    std::string command = "git";
    for (const auto& arg : args) command += " " + arg;
    return fail(ExitCode::could_not_run,
                fmt::format("'{}' failed in {}: {}", command, root.string(), first_line(result->err)));
  }
  return result;
}

StatusLine describe_git() {
  auto git = run_process({"git", "--version"}, {.timeout = std::chrono::seconds(10)});
  if (!git) return {"git", "not found: install git (apt-get install git); kforecast reads revisions through it"};
  if (git->exit_status != 0) return {"git", fmt::format("'git --version' failed: {}", git->err)};
  std::string text = git->out;
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return {"git", text};
}

}  // namespace kforecast::git
