// SPDX-License-Identifier: Apache-2.0
// `kforecast spec suggest FILE:KERNEL [--format comment|toml]`: a first draft of the kernel's
// launch spec (bench/spec_draft.hpp) on standard output, and on standard error how many values
// are left to fill. Here only the files are read: FILE, and the files of its folder that
// include it (where its host launches usually are).

#include <algorithm>
#include <filesystem>
#include <ostream>

#include <fmt/format.h>

#include "base/shell_text.hpp"
#include "base/text_file.hpp"
#include "bench/spec_draft.hpp"
#include "cli/handlers.hpp"

namespace kforecast::cli {
namespace {

constexpr std::size_t max_host_files = 500;
constexpr std::size_t max_file_bytes = std::size_t{16} << 20;

bool source_like(const std::filesystem::path& path) {
  static constexpr std::array<std::string_view, 8> extensions{".cu",  ".cuh", ".cpp", ".cc",
                                                              ".cxx", ".h",   ".hpp", ".inl"};
  return std::ranges::find(extensions, path.extension().string()) != extensions.end();
}

// The files beside `file` whose text includes it by name, in name order.
std::vector<std::pair<std::string, std::string>> including_files(const std::filesystem::path& file) {
  std::vector<std::pair<std::string, std::string>> found;
  std::error_code error;
  const auto folder = file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
  std::vector<std::filesystem::path> paths;
  for (auto it = std::filesystem::directory_iterator(folder, error);
       !error && it != std::filesystem::directory_iterator() && paths.size() < max_host_files; it.increment(error))
    if (it->is_regular_file(error) && source_like(it->path()) && !std::filesystem::equivalent(it->path(), file, error))
      paths.push_back(it->path());
  std::ranges::sort(paths);
  const std::string name = file.filename().string();
  for (const auto& path : paths) {
    auto text = read_text_file(path, "source file", max_file_bytes);
    if (!text) continue;
    if (text->find(fmt::format("\"{}\"", name)) == std::string::npos &&
        text->find(fmt::format("/{}\"", name)) == std::string::npos)
      continue;
    std::string shown =
        file.has_parent_path() ? (file.parent_path() / path.filename()).string() : path.filename().string();
    found.emplace_back(std::move(shown), std::move(*text));
  }
  return found;
}

}  // namespace

Result<ExitCode> spec_command(const Invocation& invocation, Context& context) {
  if (invocation.positional.size() != 2 || invocation.positional.front() != "suggest")
    return usage_error("usage: kforecast spec suggest FILE:KERNEL [--format comment|toml] ('kforecast help spec')");
  const std::string& target = invocation.positional[1];
  const auto colon = target.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == target.size())
    return usage_error(fmt::format("'{}': name the kernel as FILE:KERNEL, e.g. src/scale.cu:scale", target));
  const std::string file = target.substr(0, colon), kernel = target.substr(colon + 1);
  const std::string format_name = invocation.has("--format") ? invocation.value("--format") : "comment";
  if (format_name != "comment" && format_name != "toml")
    return usage_error(
        fmt::format("--format {}: use comment (a // kforecast: block) or toml (a [[kernel]] table)", format_name));
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error))
    return usage_error(fmt::format("{}: no such file (for kernel '{}')", file, kernel));
  auto source = read_text_file(file, "CUDA source", max_file_bytes);
  if (!source) return std::unexpected(source.error());
  const auto includers = including_files(file);
  std::vector<bench::HostSource> hosts;
  for (const auto& [name, text] : includers) hosts.push_back({name, text});
  auto draft = bench::draft_launch_spec(
      *source, file, kernel, hosts,
      format_name == "toml" ? bench::DraftFormat::config_table : bench::DraftFormat::comment_block);
  if (!draft) return std::unexpected(draft.error());
  context.out << draft->text;
  context.err << fmt::format(
      "kforecast: {} value{} to fill (FILL), {} guess{} to check (# guessed); paste the {} {}, then "
      "`kforecast bench {}` measures it\n",
      draft->fill_count, draft->fill_count == 1 ? "" : "s", draft->guess_count, draft->guess_count == 1 ? "" : "es",
      format_name == "toml" ? "[[kernel]] table into" : "block directly above",
      format_name == "toml" ? ".kforecast.toml" : fmt::format("'{}' in {}", kernel, file),
      shell_word(fmt::format("{}:{}", file, draft->kernel)));
  return ExitCode::pass;
}

}  // namespace kforecast::cli
