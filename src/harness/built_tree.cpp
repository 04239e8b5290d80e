// SPDX-License-Identifier: Apache-2.0
#include "harness/built_tree.hpp"

#include <fstream>

#include <fmt/format.h>

#include "base/content_hash.hpp"
#include "base/subprocess.hpp"

namespace kforecast::harness {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view built_marker = ".kforecast-harness-built";
constexpr std::size_t quoted_log_lines = 20;

Result<std::string> git(const fs::path& repository, std::vector<std::string> arguments) {
  std::vector<std::string> argv = {"git", "-C", repository.string()};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  auto ran = run_process(argv, {.timeout = std::chrono::minutes(5)});
  if (!ran) return fail(ExitCode::could_not_run, fmt::format("git {}: {}", arguments.front(), ran.error().message));
  if (ran->exit_status != 0)
    return fail(ExitCode::could_not_run,
                fmt::format("git {} failed: {}", fmt::join(arguments, " "), last_lines(ran->err, 5)));
  std::string out = ran->out;
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

// A worktree of an earlier run that did not finish its build: the folder goes, and git forgets
// it. `worktree remove` fails where git never knew the folder (another clone's worktree, one
// made before a cache was copied), so the folder is removed by hand and git's records pruned.
Result<void> discard_tree(const fs::path& repository, const fs::path& path) {
  if (auto removed = git(repository, {"worktree", "remove", "--force", path.string()}); removed) return {};
  std::error_code ec;
  fs::remove_all(path, ec);
  if (ec) return fail(ExitCode::could_not_run, fmt::format("cannot remove the unfinished worktree {}: {}",
                                                           path.string(), ec.message()));
  auto pruned = git(repository, {"worktree", "prune"});
  if (!pruned) return std::unexpected(pruned.error());
  return {};
}

}  // namespace

std::string last_lines(std::string_view text, std::size_t lines) {
  while (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  std::size_t at = text.size();
  for (std::size_t seen = 0; at > 0 && seen < lines; --at)
    if (text[at - 1] == '\n' && ++seen == lines) break;
  return std::string(text.substr(at));
}

Result<BuiltTree> built_tree(const TreeRequest& request, const Harness& harness, const ShellRunner& shell) {
  auto tree_hash = git(request.repository, {"rev-parse", "--verify", "--quiet", request.commit + "^{tree}"});
  if (!tree_hash)
    return fail(ExitCode::could_not_run, fmt::format("the {} revision {} has no tree here: {}", request.side,
                                                     request.commit, tree_hash.error().message));
  ContentHasher build_key;
  build_key.add(harness.build);
  const fs::path path = request.cache / fmt::format("{}-{}", tree_hash->substr(0, 20), build_key.hex().substr(0, 12));
  BuiltTree tree{path, false, *tree_hash};
  std::error_code ec;
  if (fs::exists(path / built_marker, ec)) {
    tree.reused = true;
    return tree;
  }
  fs::create_directories(request.cache, ec);
  if (fs::exists(path, ec))
    if (auto discarded = discard_tree(request.repository, path); !discarded) return std::unexpected(discarded.error());
  if (auto added = git(request.repository, {"worktree", "add", "--detach", "--force", path.string(), request.commit});
      !added)
    return std::unexpected(added.error());

  const fs::path log_path = fs::path(path.string() + ".build.log");
  const fs::path scratch = fs::path(path.string() + ".tmp");
  fs::create_directories(scratch, ec);
  if (!harness.build.empty()) {
    auto built = shell({harness.build, path, scratch,
                        std::chrono::milliseconds(static_cast<long long>(harness.timeout_seconds * 1000))});
    if (!built)
      return fail(ExitCode::could_not_run,
                  fmt::format("building the {} revision ({}) with harness '{}' did not finish: {} (timeout_seconds = "
                              "{:g}, {})",
                              request.side, request.commit.substr(0, 12), harness.name, built.error().message,
                              harness.timeout_seconds, harness.origin));
    std::ofstream(log_path, std::ios::binary) << built->out << built->err;
    if (built->exit_status != 0)
      return fail(ExitCode::could_not_run,
                  fmt::format("building the {} revision ({}) with harness '{}' failed (exit {}); the build command is "
                              "`{}` ({}); the log ends:\n{}\nfull log: {}",
                              request.side, request.commit.substr(0, 12), harness.name, built->exit_status,
                              harness.build, harness.origin, last_lines(built->out + built->err, quoted_log_lines),
                              log_path.string()));
  }
  std::ofstream(path / built_marker) << harness.build << "\n";
  return tree;
}

}  // namespace kforecast::harness
