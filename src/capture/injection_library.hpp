// SPDX-License-Identifier: Apache-2.0
#pragma once

// Where libkforecast_capture.so is: KFORECAST_CAPTURE_LIBRARY where set, else beside the
// kforecast binary (the build tree), else the install tree's lib/kforecast/ (bin/../lib/kforecast).

#include <filesystem>
#include <functional>

#include "base/environment.hpp"
#include "base/error.hpp"

namespace kforecast::capture {

inline constexpr const char* injection_library_name = "libkforecast_capture.so";

using FileExists = std::function<bool(const std::filesystem::path&)>;

// An error that lists the places looked at and how to build or install the library.
Result<std::filesystem::path> find_injection_library(const std::filesystem::path& kforecast_binary,
                                                     const EnvLookup& env, const FileExists& exists);

}  // namespace kforecast::capture
