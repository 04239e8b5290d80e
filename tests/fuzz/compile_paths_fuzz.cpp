// SPDX-License-Identifier: Apache-2.0
// Fuzz target: the [[compile.paths]] tables of .kforecast.toml, read by kf_context from the
// config's text after the config loader accepted it. Any config the loader accepts must give
// contexts or an Error with a message, and every table's settings go through the allow-list.

#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "config/config.hpp"
#include "context/configured_context.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace kforecast::context;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto config = kforecast::config::parse_config(text, "fuzz.toml");
  if (!config) return 0;
  auto contexts = read_configured_contexts(*config);
  if (!contexts) {
    if (contexts.error().message.empty()) std::abort();
    return 0;
  }
  const FolderLookup no_folders{[](const std::filesystem::path&) { return std::optional<std::filesystem::path>(); }};
  for (const auto& path : contexts->paths)
    if (auto context = configured_context(*contexts, path.glob, FolderPlace{"/repo", "/repo"}, no_folders))
      for (const auto& folder : context->include_dirs)
        if (folder.starts_with('/') || *std::filesystem::path(folder).begin() == "..") std::abort();
  return 0;
}
