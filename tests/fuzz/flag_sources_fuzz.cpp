// SPDX-License-Identifier: Apache-2.0
// Fuzz target: every source of a project's flags is text from a pull request, and what the
// sources let through reaches nvcc, which runs its steps through a shell. The input is split at
// NUL bytes into a compiler command (one argument per line), a CMakeLists.txt and a setup.py; for
// any input, every define, folder and flag that passes holds nothing a shell acts on.

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "base/shell_text.hpp"
#include "context/build_file_defines.hpp"
#include "context/compile_context.hpp"
#include "context/flag_filter.hpp"

namespace {

using namespace kforecast;
using namespace kforecast::context;

void check(const CompileContext& context) {
  for (const auto& [name, value] : context.defines)
    if (define_refusal(name, value)) std::abort();
  for (const auto& folder : context.include_dirs)
    if (shell_active_or_quote(folder)) std::abort();
  for (const auto& flag : context.flags)
    if (shell_active_or_quote(flag)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> parts;
  for (std::size_t at = 0; parts.size() < 3;) {
    const std::size_t end = std::min(text.find('\0', at), text.size());
    parts.push_back(text.substr(at, end - at));
    if (end == text.size()) break;
    at = end + 1;
  }
  parts.resize(3);

  std::vector<std::string> arguments;
  for (std::size_t at = 0; at < parts[0].size();) {
    const std::size_t end = std::min(parts[0].find('\n', at), parts[0].size());
    arguments.emplace_back(parts[0].substr(at, end - at));
    at = end + 1;
  }
  CompileContext command;
  add_arguments(arguments, FolderPlace{"/repo", "/repo"},
                FolderLookup{[](const std::filesystem::path& folder) { return std::optional(folder); }}, command);
  check(command);

  const std::string cmake(parts[1]), setup(parts[2]);
  const auto settled = read_build_file_defines(
      [&](const std::string& path) -> std::optional<std::string> {
        if (path == "CMakeLists.txt") return cmake;
        if (path == "setup.py") return setup;
        return std::nullopt;
      },
      90);
  CompileContext inferred;
  inferred.defines = settled.defines;
  check(inferred);
  for (const auto& flag : settled.flags) {
    CompileContext flagged;
    const std::vector<std::string> one{flag};
    add_arguments(one, FolderPlace{"/repo", "/repo"}, FolderLookup{}, flagged);
    check(flagged);
  }
  return 0;
}
