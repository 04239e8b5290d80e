// SPDX-License-Identifier: Apache-2.0
#pragma once

// What `kforecast capture` was asked to do, checked, and the environment that tells the
// injection library inside the program (capture/injection/capture_settings.hpp reads it there).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/environment.hpp"
#include "base/error.hpp"

namespace kforecast::capture {

// The command line's words, unchecked.
struct CaptureOptions {
  std::optional<std::string> dir;
  std::optional<std::string> launches_per_shape;
  std::optional<std::string> bytes;
  std::optional<std::string> kernels;
  std::vector<std::string> command;
};

struct CaptureRequest {
  std::filesystem::path dir;  // absolute: the program may change its working directory
  std::uint32_t launches_per_shape = 1;
  std::uint64_t byte_budget = 0;
  std::string kernels = "*";
  std::vector<std::string> command;
};

// Usage errors name the option and a valid example. `repository_root` anchors the default
// folder (.kforecast/captures) and a relative --dir is taken from `working_directory`.
Result<CaptureRequest> make_capture_request(const CaptureOptions& options,
                                            const std::filesystem::path& working_directory,
                                            const std::filesystem::path& repository_root);

// The nearest folder at or above `start` holding .git, else `start`.
std::filesystem::path repository_root_above(const std::filesystem::path& start);

using EnvironmentEntry = std::pair<std::string, std::string>;

// The variables set for the program: CUDA_INJECTION64_PATH, the KFORECAST_CAPTURE_* limits, and
// CUDA_MODULE_LOADING=EAGER unless the environment already chooses, because a lazily loaded
// module is loaded inside its first launch, after the library needed its parameter layout.
std::vector<EnvironmentEntry> capture_environment(const CaptureRequest& request,
                                                  const std::filesystem::path& injection_library, const EnvLookup& env);

}  // namespace kforecast::capture
