// SPDX-License-Identifier: Apache-2.0
#pragma once

// The one way cli gets a compiler: NVRTC found as the config and environment say, wrapped so that
// every compile runs confined in a child process (cuda/isolated_compiler.hpp). Where project
// headers come from decides what the compiler may be handed: a revision read from git brings its
// headers along; work-tree commands (bench, check, lint) let kforecast read them from disk,
// inside the repository only.

#include <expected>
#include <filesystem>
#include <memory>
#include <string>
#include <optional>

#include "base/environment.hpp"
#include "config/config.hpp"
#include "cuda/compiler.hpp"
#include "cuda/nvcc_unit.hpp"

namespace kforecast::cli {

// `work_tree`: the repository folder headers may be read from; nullopt when every request
// carries its headers.
cuda::LoadedCompiler load_compiler(const config::Config& config, const EnvLookup& env,
                                   std::optional<std::filesystem::path> work_tree = std::nullopt);

// The project's own compiler of whole units: the toolkit's nvcc (cuda.nvcc, else found as
// cuda/toolkit_locator.hpp says), run confined (cuda/nvcc_unit.hpp) under the same limits as
// NVRTC's child; or why there is none, every place tried.
std::expected<std::unique_ptr<cuda::UnitCompiler>, std::string> load_unit_compiler(const config::Config& config,
                                                                                   const EnvLookup& env);

}  // namespace kforecast::cli
