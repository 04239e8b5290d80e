// SPDX-License-Identifier: Apache-2.0
#include "git/submodule_fetch.hpp"

#include <algorithm>
#include <cctype>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "base/content_hash.hpp"
#include "base/subprocess.hpp"
#include "git/git_process.hpp"

extern char** environ;

namespace kforecast::git {
namespace {

bool is_commit_id(std::string_view commit) {
  return commit.size() == 40 && std::ranges::all_of(commit, [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
}

// This process's environment, with git told never to ask for a password: a private or moved
// repository must fail the fetch, not wait for a terminal CI does not have.
std::vector<std::string> fetch_environment() {
  std::vector<std::string> variables;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    if (!text.starts_with("GIT_TERMINAL_PROMPT=") && !text.starts_with("GCM_INTERACTIVE=")) variables.emplace_back(text);
  }
  variables.emplace_back("GIT_TERMINAL_PROMPT=0");
  variables.emplace_back("GCM_INTERACTIVE=never");
  return variables;
}

std::string last_line(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.remove_suffix(1);
  const auto newline = text.rfind('\n');
  return std::string(newline == std::string_view::npos ? text : text.substr(newline + 1));
}

bool holds_commit(const std::filesystem::path& folder, std::string_view commit) {
  auto present = run_git(folder, {"cat-file", "-e", fmt::format("{}^{{commit}}", commit)}, {}, 128);
  return present && present->exit_status == 0;
}

}  // namespace

std::string unfetchable_url_reason(std::string_view url) {
  if (!url.starts_with("https://")) return "not an https URL";
  if (std::ranges::any_of(url, [](char c) { return static_cast<unsigned char>(c) <= ' ' || c == '\x7f'; }))
    return "the URL holds spaces or control characters";
  const std::string_view rest = url.substr(8);
  const std::string_view authority = rest.substr(0, rest.find('/'));
  if (authority.empty()) return "the URL names no host";
  if (authority.find('@') != std::string_view::npos) return "the URL carries user information (credentials)";
  if (authority.size() == rest.size() || rest.size() == authority.size() + 1) return "the URL names no repository";
  return {};
}

std::filesystem::path fetch_folder(const std::filesystem::path& cache, std::string_view url) {
  ContentHasher hasher;
  hasher.add(url);
  return cache / ("fetched-" + hasher.hex());
}

Result<std::filesystem::path> fetch_pinned_commit(const std::filesystem::path& cache, std::string_view url,
                                                  std::string_view commit, std::chrono::seconds timeout) {
  if (const std::string reason = unfetchable_url_reason(url); !reason.empty())
    return fail(ExitCode::could_not_run, fmt::format("{} is not fetched: {}", url, reason));
  if (!is_commit_id(commit))
    return fail(ExitCode::could_not_run, fmt::format("'{}' is not a commit id (40 hexadecimal digits)", commit));
  std::filesystem::path folder = fetch_folder(cache, url);
  std::error_code error;
  std::filesystem::create_directories(cache, error);
  if (error) return fail(ExitCode::could_not_run, fmt::format("cannot create {}: {}", cache.string(), error.message()));
  if (!std::filesystem::exists(folder / ".git", error)) {
    // No templates: nothing of the user's git template (hooks) lands in a folder kforecast owns.
    auto made = run_git(cache, {"init", "--quiet", "--template=", folder.string()});
    if (!made) return std::unexpected(made.error());
  }
  if (holds_commit(folder, commit)) return folder;
  // One commit, by its id (GitHub and GitLab serve any reachable commit so), over https alone.
  std::vector<std::string> argv{"git", "-C", folder.string(), "-c", "protocol.allow=never", "-c",
                                "protocol.https.allow=always", "-c", "credential.helper=", "fetch", "--quiet",
                                "--no-tags", "--depth=1", "--no-write-fetch-head", "--", std::string(url),
                                std::string(commit)};
  auto fetched = run_process(argv, {.timeout = timeout, .environment = fetch_environment()});
  if (!fetched)
    return fail(ExitCode::could_not_run, fmt::format("fetching {} from {}: {}", commit.substr(0, 12), url, fetched.error().message));
  if (fetched->exit_status != 0 || !holds_commit(folder, commit))
    return fail(ExitCode::could_not_run, fmt::format("fetching {} from {} failed: {}", commit.substr(0, 12), url,
                                                     fetched->exit_status != 0 ? last_line(fetched->err)
                                                                               : "the server sent no such commit"));
  return folder;
}

}  // namespace kforecast::git
