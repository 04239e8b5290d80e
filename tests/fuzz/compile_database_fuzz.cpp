// SPDX-License-Identifier: Apache-2.0
// Fuzz target: compile_commands.json is made by a pull request's workflow, so it is untrusted.
// Any input must give a database or an Error with a message, never a crash or a hang; every
// entry of a database that parses is put through the flag allow-list as well.

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "context/compile_database.hpp"
#include "context/context_for.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kforecast::context;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto database = parse_compile_database(text, "fuzz.json", DatabasePlace{"/work/repo", "/work/repo/build"});
  if (!database) {
    if (database.error().message.empty()) std::abort();
    return 0;
  }
  // No file system here: /usr/include is the one system folder that exists.
  const ContextSources sources{"/work/repo", FolderLookup{[](const std::filesystem::path& folder) {
                                 return folder == "/usr/include" ? std::optional(folder) : std::nullopt;
                               }},
                               &*database, nullptr, nullptr};
  for (const auto& [file, entry] : database->entries) {
    const CompileContext context = database_context(entry, sources);
    for (const auto& folder : context.include_dirs)
      if (*std::filesystem::path(folder).begin() == ".." || (folder.starts_with('/') && folder != "/usr/include"))
        std::abort();
  }
  return 0;
}
