// SPDX-License-Identifier: Apache-2.0
#include "git/repository.hpp"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "git/git_process.hpp"

namespace kforecast::git {
namespace {

std::string trimmed(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

// Options that make `git diff` output what the parser expects whatever the user configured.
const std::vector<std::string> diff_options{"--no-color",  "--no-ext-diff",   "--no-textconv",   "--find-renames",
                                            "--unified=0", "--src-prefix=a/", "--dst-prefix=b/", "--ignore-submodules"};

class CliRepository final : public Repository {
 public:
  explicit CliRepository(std::filesystem::path root) : m_root(std::move(root)) {}

  const std::filesystem::path& root() const override { return m_root; }

  Result<Commit> resolve(std::string_view revision) const override {
    // A revision is data, never an option: "--output=x" must not reach git as one.
    if (revision.empty() || revision.starts_with('-'))
      return usage_error(fmt::format("'{}' is not a revision", revision));
    auto result = run_git(m_root, {"rev-parse", "--verify", "--quiet", fmt::format("{}^{{commit}}", revision)}, {}, 1);
    if (!result) return std::unexpected(result.error());
    if (result->exit_status != 0)
      return usage_error(fmt::format("revision '{}' names no commit in {}", revision, m_root.string()));
    return Commit{std::string(revision), trimmed(result->out)};
  }

  Result<std::string> merge_base(std::string_view a, std::string_view b) const override {
    auto result = run_git(m_root, {"merge-base", std::string(a), std::string(b)}, {}, 1);
    if (!result) return std::unexpected(result.error());
    if (result->exit_status != 0)
      return fail(ExitCode::could_not_run, fmt::format("'{}' and '{}' have no common ancestor", a, b));
    return trimmed(result->out);
  }

  std::optional<std::string> upstream() const override {
    auto result = run_git(m_root, {"rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"}, {}, 128);
    if (!result || result->exit_status != 0) return std::nullopt;
    return trimmed(result->out);
  }

  Result<std::string> diff(std::string_view base, std::string_view head) const override {
    std::vector<std::string> args{"diff"};
    args.insert(args.end(), diff_options.begin(), diff_options.end());
    args.insert(args.end(), {std::string(base), std::string(head), "--"});
    auto result = run_git(m_root, std::move(args));
    if (!result) return std::unexpected(result.error());
    return std::move(result->out);
  }

  Result<std::string> staged_diff() const override {
    std::vector<std::string> args{"diff", "--cached"};
    args.insert(args.end(), diff_options.begin(), diff_options.end());
    args.push_back("--");
    auto result = run_git(m_root, std::move(args));
    if (!result) return std::unexpected(result.error());
    return std::move(result->out);
  }

  Result<std::vector<std::string>> list_files(std::string_view revision) const override {
    // -z: paths exactly as stored, whatever bytes they hold.
    auto result = revision.empty() ? run_git(m_root, {"ls-files", "-z", "--cached"})
                                   : run_git(m_root, {"ls-tree", "-r", "-z", "--name-only", std::string(revision)});
    if (!result) return std::unexpected(result.error());
    std::vector<std::string> paths;
    std::string_view rest = result->out;
    while (!rest.empty()) {
      const auto end = rest.find('\0');
      paths.emplace_back(rest.substr(0, end));
      rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
    }
    return paths;
  }

  Result<std::vector<TreeEntry>> list_tree(std::string_view revision) const override {
    // ls-tree: "MODE TYPE HASH\tPATH"; ls-files -s: "MODE HASH STAGE\tPATH". -z: paths as stored.
    auto result = revision.empty() ? run_git(m_root, {"ls-files", "-s", "-z"})
                                   : run_git(m_root, {"ls-tree", "-r", "-z", std::string(revision)});
    if (!result) return std::unexpected(result.error());
    std::vector<TreeEntry> entries;
    std::string_view rest = result->out;
    while (!rest.empty()) {
      const auto end = rest.find('\0');
      const std::string_view record = rest.substr(0, end);
      rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
      const auto tab = record.find('\t');
      if (tab == std::string_view::npos) continue;
      const std::string_view fields = record.substr(0, tab);
      const bool blob =
          revision.empty() ? !fields.starts_with("160000") : fields.find(" blob ") != std::string_view::npos;
      if (!blob) continue;
      const auto hash_start = revision.empty() ? fields.find(' ') + 1 : fields.rfind(' ') + 1;
      const auto hash_end = revision.empty() ? fields.find(' ', hash_start) : fields.size();
      entries.push_back(
          {std::string(record.substr(tab + 1)), std::string(fields.substr(hash_start, hash_end - hash_start))});
    }
    return entries;
  }

  Result<std::map<std::string, std::string, std::less<>>> read_blobs(
      const std::vector<std::string>& blobs) const override {
    std::vector<std::string> unique = blobs;
    std::sort(unique.begin(), unique.end());
    unique.erase(std::unique(unique.begin(), unique.end()), unique.end());
    auto contents = read_batch(unique);
    if (!contents) return std::unexpected(contents.error());
    std::map<std::string, std::string, std::less<>> out;
    for (auto& [name, text] : *contents) {
      if (!text) return fail(ExitCode::could_not_run, fmt::format("git has no object {}", name));
      out.emplace(name, std::move(*text));
    }
    return out;
  }

  Result<std::map<std::string, std::optional<std::string>, std::less<>>> read_files(
      std::string_view revision, const std::vector<std::string>& paths) const override;

 private:
  // One `git cat-file --batch --buffer` over object names ("HASH" or "REV:PATH").
  Result<std::map<std::string, std::optional<std::string>, std::less<>>> read_batch(
      const std::vector<std::string>& names) const;

  std::filesystem::path m_root;
};

// `git cat-file --batch` answers each name with "HASH TYPE SIZE\n<bytes>\n", or "NAME missing\n" /
// "NAME ambiguous\n". --buffer: one flush at the end rather than one per object.
Result<std::map<std::string, std::optional<std::string>, std::less<>>> CliRepository::read_batch(
    const std::vector<std::string>& names) const {
  std::map<std::string, std::optional<std::string>, std::less<>> files;
  if (names.empty()) return files;
  std::string request;
  for (const auto& name : names) {
    if (name.find_first_of("\n\r") != std::string::npos)
      return fail(ExitCode::could_not_run, fmt::format("cannot read a path containing a line break: {:?}", name));
    request += name + "\n";
  }
  auto result = run_git(m_root, {"cat-file", "--batch", "--buffer"}, std::move(request));
  if (!result) return std::unexpected(result.error());
  std::string_view out = result->out;
  for (const auto& name : names) {
    const auto header_end = out.find('\n');
    if (header_end == std::string_view::npos) return fail(ExitCode::could_not_run, "git cat-file --batch ended early");
    const std::string_view header = out.substr(0, header_end);
    out.remove_prefix(header_end + 1);
    if (header.ends_with(" missing") || header.ends_with(" ambiguous")) {
      files.emplace(name, std::nullopt);
      continue;
    }
    const auto last_space = header.rfind(' ');
    const auto type_space = header.find(' ');
    std::size_t size = 0;
    const auto size_text = header.substr(last_space + 1);
    if (last_space == std::string_view::npos ||
        std::from_chars(size_text.data(), size_text.data() + size_text.size(), size).ec != std::errc{} ||
        size + 1 > out.size())
      return fail(ExitCode::could_not_run, fmt::format("unexpected answer from git cat-file: {}", header));
    const bool blob = header.substr(type_space + 1, last_space - type_space - 1) == "blob";
    files.emplace(name, blob ? std::optional<std::string>(out.substr(0, size)) : std::nullopt);
    out.remove_prefix(size + 1);
  }
  return files;
}

Result<std::map<std::string, std::optional<std::string>, std::less<>>> CliRepository::read_files(
    std::string_view revision, const std::vector<std::string>& paths) const {
  std::vector<std::string> names;
  for (const auto& path : paths) names.push_back(fmt::format("{}:{}", revision, path));
  auto batch = read_batch(names);
  if (!batch) return std::unexpected(batch.error());
  std::map<std::string, std::optional<std::string>, std::less<>> files;
  for (std::size_t i = 0; i < paths.size(); ++i) files.emplace(paths[i], std::move(batch->at(names[i])));
  return files;
}

}  // namespace

Result<std::unique_ptr<Repository>> open_repository(const std::filesystem::path& directory) {
  std::error_code ec;
  if (!std::filesystem::is_directory(directory, ec))
    return usage_error(fmt::format("'{}' is not a directory", directory.string()));
  auto result = run_git(directory, {"rev-parse", "--show-toplevel"}, {}, 128);
  if (!result) return std::unexpected(result.error());
  if (result->exit_status != 0)
    return usage_error(fmt::format("'{}' is not inside a git work tree (use --repo DIR)", directory.string()));
  return std::make_unique<CliRepository>(trimmed(result->out));
}

}  // namespace kforecast::git
