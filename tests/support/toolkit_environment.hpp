// SPDX-License-Identifier: Apache-2.0
#pragma once

// For a kforecast that a test starts with a clean environment (HOME=/tmp): the variables that let
// it see the CUDA toolkit and the NVRTC this test process sees, so a requirement checked here
// ("NVRTC is installed") holds there too. KFORECAST_NVRTC_LIBRARY, KFORECAST_CUDA_DRIVER_LIBRARY,
// CUDA_HOME and CUDA_PATH where set; else, where /usr/local/cuda has
// neither nvcc nor NVRTC, the private toolkit scripts/setup.sh installed under this user's cache
// (cuda::private_toolkit_roots), which the clean HOME would hide, as CUDA_HOME.

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace kforecast::testing {

inline std::vector<std::string> toolkit_environment() {
  namespace fs = std::filesystem;
  std::vector<std::string> variables;
  // The explicit libraries (cuda_requirements.hpp's test_loader_options) travel too: a child
  // kforecast loads the NVRTC the test checked for.
  for (const char* name : {"KFORECAST_NVRTC_LIBRARY", "KFORECAST_CUDA_DRIVER_LIBRARY"})
    if (const char* value = std::getenv(name); value != nullptr && *value != '\0')
      variables.push_back(std::string(name) + "=" + value);
  bool toolkit_named = false;
  for (const char* name : {"CUDA_HOME", "CUDA_PATH"})
    if (const char* value = std::getenv(name); value != nullptr && *value != '\0') {
      variables.push_back(std::string(name) + "=" + value);
      toolkit_named = true;
    }
  std::error_code ec;
  if (toolkit_named || fs::exists("/usr/local/cuda/bin/nvcc", ec) ||
      fs::exists("/usr/local/cuda/lib64/libnvrtc.so.13", ec))
    return variables;
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const char* home = std::getenv("HOME");
  const fs::path cache = xdg != nullptr && *xdg != '\0'     ? fs::path(xdg)
                         : home != nullptr && *home != '\0' ? fs::path(home) / ".cache"
                                                            : fs::path();
  if (cache.empty()) return variables;
  // One pinned version is installed at a time in practice; the greatest name is enough here.
  fs::path newest;
  for (fs::directory_iterator it(cache / "kforecast", ec), end; !ec && it != end; it.increment(ec))
    if (it->path().filename().string().starts_with("cuda-") && fs::exists(it->path() / "toolkit/bin/nvcc", ec) &&
        it->path() > newest)
      newest = it->path();
  if (!newest.empty()) variables.push_back("CUDA_HOME=" + (newest / "toolkit").string());
  return variables;
}

}  // namespace kforecast::testing
