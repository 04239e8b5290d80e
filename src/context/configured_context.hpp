// SPDX-License-Identifier: Apache-2.0
#pragma once

// The compile context a repository's config gives: the compile.* keys for every file, and
// [[compile.paths]] tables for the files their glob matches. Used for files the compile
// database does not list.
//
//   [compile]
//   include_dirs = ["include"]
//   defines = ["TCNN_MIN_GPU_ARCH=80"]
//   flags = ["-std=c++17", "--extended-lambda"]
//
//   [[compile.paths]]
//   glob = "dev/cuda/*"
//   flags = ["-O3", "--use_fast_math"]
//
// The first table whose glob matches a file applies (globs are fnmatch patterns over
// repository-relative paths in which '*' also matches '/', as lint.ignore_paths's are): its
// include folders and flags come after the compile.* ones, and its define of a name replaces
// the compile.* define of that name.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/error.hpp"
#include "config/config.hpp"
#include "context/compile_context.hpp"
#include "context/include_folder.hpp"

namespace kforecast::context {

struct ContextSettings {
  std::vector<std::string> include_dirs;
  std::vector<std::string> defines;  // "NAME" or "NAME=VALUE"
  std::vector<std::string> flags;
  bool empty() const { return include_dirs.empty() && defines.empty() && flags.empty(); }
};

struct PathContextSettings {
  std::string glob;
  ContextSettings settings;
  std::string origin;  // ".kforecast.toml:12"
};

struct ConfiguredContexts {
  ContextSettings everywhere;  // the compile.* keys
  std::vector<PathContextSettings> paths;
  std::string config_name;  // ".kforecast.toml", for origin details
};

// The compile.* keys and the [[compile.paths]] tables of `config`. A table of the wrong shape is an
// Error naming the file, line and key.
Result<ConfiguredContexts> read_configured_contexts(const config::Config& config);

// The context the config gives `file` (repository-relative), or nullopt where it gives none.
// Folders are relative to the repository root; flags pass the same allow-list as a database's.
std::optional<CompileContext> configured_context(const ConfiguredContexts& contexts, const std::string& file,
                                                 const FolderPlace& place, const FolderLookup& lookup);

}  // namespace kforecast::context
